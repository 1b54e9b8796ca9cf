// HS256/384/512 tokens signed in the browser (WebCrypto) with a key the admin types, for "run as" a role or record id.

const HASHES: Record<string, string> = { HS256: "SHA-256", HS384: "SHA-384", HS512: "SHA-512" };

function base64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** A compact JWT with the given claims, valid from now for `seconds`. */
export async function signToken(alg: string, key: string, claims: Record<string, unknown>, seconds = 300): Promise<string> {
  const hash = HASHES[alg.toUpperCase()];
  if (hash === undefined) throw new Error(`The console signs HS256, HS384 and HS512 tokens only; this access method uses ${alg}`);
  if (!globalThis.crypto?.subtle) throw new Error("Signing a token needs a secure context: open the console over https or on localhost");
  const enc = new TextEncoder();
  const now = Math.floor(Date.now() / 1000);
  const head = base64url(enc.encode(JSON.stringify({ typ: "JWT", alg: alg.toUpperCase() })));
  const body = base64url(enc.encode(JSON.stringify({ iat: now, nbf: now, exp: now + seconds, ...claims })));
  const k = await crypto.subtle.importKey("raw", enc.encode(key), { name: "HMAC", hash }, false, ["sign"]);
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", k, enc.encode(`${head}.${body}`)));
  return `${head}.${body}.${base64url(sig)}`;
}
