// value/: a long string a piece at a time, for work that must let the event loop turn between pieces (attack pass 11,
// I5): builtins over long strings and the encoding of large answers.

/** `s` in pieces of about `size` UTF-16 units, never cut inside a surrogate pair (a lone high surrogate is a character). */
export function* textPieces(s: string, size: number): Generator<string> {
  for (let at = 0; at < s.length; ) {
    let end = Math.min(s.length, at + size);
    if (end < s.length && (s.charCodeAt(end - 1) & 0xfc00) === 0xd800 && (s.charCodeAt(end) & 0xfc00) === 0xdc00) end++;
    yield s.slice(at, end);
    at = end;
  }
}
