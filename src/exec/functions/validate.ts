// Text validators shared by string::is::*, parse:: and type::is::*, matching the Rust crates SurrealDB uses.

import { isIPv6 } from "node:net";

const MAX_DOMAIN_LEN = 253;
const MAX_LABELS = 127;
const MAX_LABEL_LEN = 63;

const charCount = (s: string): number => [...s].length;
const isAsciiAlnum = (c: string): boolean => /^[A-Za-z0-9]$/.test(c);
const isAsciiNonAlnum = (c: string): boolean => c.charCodeAt(0) < 0x80 && !isAsciiAlnum(c);

/** Rust `str::parse::<f64>().is_ok()`: decimal with optional sign/exponent, or inf/infinity/nan. */
export function isRustFloat(s: string): boolean {
  return /^[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|inf|infinity|nan)$/i.test(s);
}

/** addr's label rule: non-empty, ≤ 63 chars, no ASCII symbol at either end or inside (except '-'), numeric TLD refused. */
function isLabel(label: string, isTld: boolean): boolean {
  if (label.length === 0 || charCount(label) > MAX_LABEL_LEN) return false;
  if (isTld && isRustFloat(label)) return false;
  const chars = [...label];
  if (isAsciiNonAlnum(chars[0]!) || isAsciiNonAlnum(chars[chars.length - 1]!)) return false;
  return !chars.some((c) => c !== "-" && isAsciiNonAlnum(c));
}

/** addr::parse_domain_name: one trailing dot allowed; labels checked as above. */
export function isDomainName(name: string): boolean {
  const stripped = name.endsWith(".") ? name.slice(0, -1) : name;
  if (!stripped.includes(".")) return isLabel(stripped, true);
  if (charCount(stripped) > MAX_DOMAIN_LEN) return false;
  const labels = stripped.split(".");
  if (labels.length > MAX_LABELS) return false;
  return labels.every((l, i) => isLabel(l, i === labels.length - 1));
}

const GLOBAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]$/;
const QUOTED = new Set(['"', ".", " ", "(", ")", ",", "\\", ":", ";", "<", ">", "@", "[", "]"]);
const isCombined = (c: string): boolean => GLOBAL.test(c) || c.codePointAt(0)! > 0x7f;

/** addr's email local part (dot-atom, or a quoted string; the first character of a dot-atom is only checked against ' ' and '.'). */
function isEmailLocal(local: string): boolean {
  const chars = [...local];
  if (chars.length === 0) return false;
  const first = chars[0]!;
  const rest = chars.slice(1);
  const lastIndex = Math.max(rest.length, 1) - 1;
  if (lastIndex > MAX_LABEL_LEN) return false;
  if (first === '"') {
    if (lastIndex === 0) return false;
    return rest.every((c, i) => (i === lastIndex ? c === '"' : isCombined(c) || QUOTED.has(c)));
  }
  if (first === " " || first === "." || local.includes("..")) return false;
  return rest.every((c, i) => isCombined(c) || (i !== lastIndex && c === "."));
}

/** addr::parse_email_address (SurrealDB's string::is::email). Never throws. */
export function isEmailAddress(address: string): boolean {
  return parseEmailAddress(address) !== undefined;
}

/** Split a valid address into user and host (host of `[ip]` without brackets), else undefined. */
export function parseEmailAddress(address: string): { user: string; host: string } | undefined {
  if (address.length > 2 * 254 || charCount(address) > 254) return undefined;
  const at = address.lastIndexOf("@");
  if (at < 0) return undefined;
  const local = address.slice(0, at);
  const rest = address.slice(at + 1);
  if (!isEmailLocal(local)) return undefined;
  if (rest.startsWith("[")) {
    if (!rest.endsWith("]")) return undefined;
    const ip = rest.slice(1, -1);
    return isIp(ip) ? { user: local, host: ip } : undefined;
  }
  return isDomainName(rest) ? { user: local, host: rest } : undefined;
}

/** Rust Ipv4Addr::from_str: four decimal octets 0–255, no leading zeros. */
export function isIpv4(s: string): boolean {
  const parts = s.split(".");
  return parts.length === 4 && parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255);
}

/** Rust Ipv6Addr::from_str: no zone index; an embedded IPv4 tail must itself be strict. */
export function isIpv6(s: string): boolean {
  if (s.includes("%") || !isIPv6(s)) return false;
  const tail = s.slice(s.lastIndexOf(":") + 1);
  return !tail.includes(".") || isIpv4(tail);
}

export function isIp(s: string): boolean {
  return isIpv4(s) || isIpv6(s);
}

/** uuid::Uuid::parse_str: hyphenated, simple, braced or urn form, any case. */
export function isUuidText(s: string): boolean {
  const h = "[0-9a-fA-F]";
  const hyph = `${h}{8}-${h}{4}-${h}{4}-${h}{4}-${h}{12}`;
  return new RegExp(`^(${hyph}|${h}{32}|\\{${hyph}\\}|urn:uuid:${hyph})$`).test(s);
}

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

export interface SemVer {
  major: bigint;
  minor: bigint;
  patch: bigint;
  pre: string;
  build: string;
}

/** semver::Version::parse (strict SemVer 2.0; numbers fit in u64). */
export function parseSemver(s: string): SemVer | undefined {
  const m = SEMVER.exec(s);
  if (!m) return undefined;
  const [major, minor, patch] = [BigInt(m[1]!), BigInt(m[2]!), BigInt(m[3]!)];
  const max = 2n ** 64n - 1n;
  if (major > max || minor > max || patch > max) return undefined;
  return { major, minor, patch, pre: m[4] ?? "", build: m[5] ?? "" };
}

export function formatSemver(v: SemVer): string {
  return `${v.major}.${v.minor}.${v.patch}${v.pre ? `-${v.pre}` : ""}${v.build ? `+${v.build}` : ""}`;
}

/** semver precedence (build metadata ignored, as the crate's Ord does after pre; then build compared lexically). */
export function compareSemver(a: SemVer, b: SemVer): number {
  for (const k of ["major", "minor", "patch"] as const) if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  const pre = comparePre(a.pre, b.pre);
  if (pre !== 0) return pre;
  return a.build === b.build ? 0 : comparePre(a.build, b.build) || (a.build < b.build ? -1 : 1);
}

function comparePre(a: string, b: string): number {
  if (a === b) return 0;
  if (a === "") return 1;
  if (b === "") return -1;
  const pa = a.split(".");
  const pb = b.split(".");
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i]!;
    const y = pb[i]!;
    if (x === y) continue;
    const xn = /^\d+$/.test(x);
    const yn = /^\d+$/.test(y);
    if (xn && yn) return BigInt(x) < BigInt(y) ? -1 : 1;
    if (xn) return -1;
    if (yn) return 1;
    return x < y ? -1 : 1;
  }
  return pa.length === pb.length ? 0 : pa.length < pb.length ? -1 : 1;
}

/** ulid::Ulid::from_string: 26 Crockford base32 chars, first ≤ '7'. */
export function isUlidText(s: string): boolean {
  return /^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$/.test(s);
}

/** url::Url::parse (WHATWG, as the url crate implements it). */
export function isUrl(s: string): boolean {
  try {
    new URL(s);
    return true;
  } catch {
    return false;
  }
}

/** SurrealDB's datetime literal text: a date, or a date-time with Z or an offset. */
export function isDatetimeText(s: string): boolean {
  const m = /^([+-]?\d{4})-(\d\d)-(\d\d)(?:T(\d\d):(\d\d):(\d\d)(\.\d{1,9})?(Z|[+-]\d\d:\d\d))?$/.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 60)) return false;
  if (m[8] && m[8] !== "Z" && (Number(m[8].slice(1, 3)) > 23 || Number(m[8].slice(4)) > 59)) return false;
  return true;
}

export function daysInMonth(year: number, month: number): number {
  return [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

export function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}
