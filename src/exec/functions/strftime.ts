// chrono-style strftime: formatting for time::format and parsing for string::is::datetime(text, format).

import { daysInMonth, isLeap } from "./validate.js";

/** Date.UTC without its 0–99 → 1900s year mapping. */
export function utc(year: number, month0: number, day: number, h = 0, m = 0, sec = 0): number {
  const d = new Date(Date.UTC(2000, month0, day, h, m, sec));
  d.setUTCFullYear(year, month0, day);
  return d.getTime();
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** Broken-down UTC time with nanoseconds (year may exceed JS Date's range only in theory). */
export interface Civil {
  year: number;
  month: number; // 1–12
  day: number;
  hour: number;
  minute: number;
  second: number;
  nanos: number;
  weekday: number; // 0 = Sunday
  yday: number; // 1-based
  unix: bigint; // seconds
}

export function civilFromNanos(nanos: bigint): Civil {
  const NS = 1_000_000_000n;
  let secs = nanos / NS;
  let frac = nanos % NS;
  if (frac < 0n) {
    frac += NS;
    secs -= 1n;
  }
  const d = new Date(Number(secs) * 1000);
  const year = d.getUTCFullYear();
  const start = utc(year, 0, 1);
  return {
    year,
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    nanos: Number(frac),
    weekday: d.getUTCDay(),
    yday: Math.floor((d.getTime() - start) / 86_400_000) + 1,
    unix: secs,
  };
}

/** ISO 8601 week-numbering year and week. */
export function isoWeek(c: Civil): { year: number; week: number } {
  const wd = (c.weekday + 6) % 7; // Monday = 0
  const thursday = new Date(utc(c.year, c.month - 1, c.day - wd + 3));
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - utc(year, 0, 1)) / (7 * 86_400_000)) + 1;
  return { year, week };
}

type Pad = "0" | " " | "";

function num(n: number, width: number, pad: Pad): string {
  const neg = n < 0;
  const s = String(Math.abs(n));
  const body = pad === "" ? s : s.padStart(width, pad);
  return neg ? `-${body}` : body;
}

/** Fraction digits chrono prints for %.f: 0, 3, 6 or 9 depending on precision. */
function autoFraction(nanos: number): string {
  if (nanos === 0) return "";
  if (nanos % 1_000_000 === 0) return "." + String(nanos / 1_000_000).padStart(3, "0");
  if (nanos % 1_000 === 0) return "." + String(nanos / 1_000).padStart(6, "0");
  return "." + String(nanos).padStart(9, "0");
}

/** Format `c` with a chrono strftime pattern; undefined when the pattern is invalid. */
export function formatCivil(c: Civil, fmt: string): string | undefined {
  let out = "";
  for (let i = 0; i < fmt.length; i++) {
    const ch = fmt[i]!;
    if (ch !== "%") {
      out += ch;
      continue;
    }
    let pad: Pad | undefined;
    let next = fmt[++i];
    if (next === "-" || next === "_" || next === "0") {
      pad = next === "-" ? "" : next === "_" ? " " : "0";
      next = fmt[++i];
    }
    const p = (def: Pad): Pad => pad ?? def;
    if (next === undefined) return undefined;
    if (next === "." || /[369]/.test(next)) {
      // %.f %.3f %.6f %.9f %3f %6f %9f
      let spec = next;
      if (next === ".") {
        const d = fmt[i + 1];
        if (d === "f") {
          i++;
          out += autoFraction(c.nanos);
          continue;
        }
        if (d !== undefined && /[369]/.test(d) && fmt[i + 2] === "f") {
          i += 2;
          out += "." + String(c.nanos).padStart(9, "0").slice(0, Number(d));
          continue;
        }
        return undefined;
      }
      if (fmt[i + 1] === "f") {
        i++;
        out += String(c.nanos).padStart(9, "0").slice(0, Number(spec));
        continue;
      }
      return undefined;
    }
    if (next === ":") {
      if (fmt[i + 1] === "z") {
        i++;
        out += "+00:00";
        continue;
      }
      return undefined;
    }
    const iso = isoWeek(c);
    const h12 = c.hour % 12 === 0 ? 12 : c.hour % 12;
    const wdMon = (c.weekday + 6) % 7;
    const part = ((): string | undefined => {
      switch (next) {
        // chrono: a year outside 0–9999 is signed and padded to four digits (`-0001`, `+10014`)
        case "Y": return c.year >= 0 && c.year <= 9999 ? num(c.year, 4, p("0")) : (c.year > 0 ? "+" : "-") + String(Math.abs(c.year)).padStart(4, "0");
        case "C": return num(Math.floor(c.year / 100), 2, p("0"));
        case "y": return num(((c.year % 100) + 100) % 100, 2, p("0"));
        case "m": return num(c.month, 2, p("0"));
        case "b": case "h": return MONTHS[c.month - 1]!.slice(0, 3);
        case "B": return MONTHS[c.month - 1]!;
        case "d": return num(c.day, 2, p("0"));
        case "e": return num(c.day, 2, p(" "));
        case "a": return DAYS[c.weekday]!.slice(0, 3);
        case "A": return DAYS[c.weekday]!;
        case "w": return String(c.weekday);
        case "u": return String(wdMon + 1);
        case "U": return num(Math.floor((c.yday - 1 - c.weekday + 7) / 7), 2, p("0"));
        case "W": return num(Math.floor((c.yday - 1 - wdMon + 7) / 7), 2, p("0"));
        case "G": return num(iso.year, 4, p("0"));
        case "g": return num(((iso.year % 100) + 100) % 100, 2, p("0"));
        case "V": return num(iso.week, 2, p("0"));
        case "j": return num(c.yday, 3, p("0"));
        case "D": case "x": return formatCivil(c, "%m/%d/%y");
        case "F": return formatCivil(c, "%Y-%m-%d");
        case "v": return formatCivil(c, "%e-%b-%Y");
        case "H": return num(c.hour, 2, p("0"));
        case "k": return num(c.hour, 2, p(" "));
        case "I": return num(h12, 2, p("0"));
        case "l": return num(h12, 2, p(" "));
        case "P": return c.hour < 12 ? "am" : "pm";
        case "p": return c.hour < 12 ? "AM" : "PM";
        case "M": return num(c.minute, 2, p("0"));
        case "S": return num(c.second, 2, p("0"));
        case "f": return String(c.nanos).padStart(9, "0");
        case "R": return formatCivil(c, "%H:%M");
        case "T": case "X": return formatCivil(c, "%H:%M:%S");
        case "r": return formatCivil(c, "%I:%M:%S %p");
        case "Z": return "UTC";
        case "z": return "+0000";
        case "c": return formatCivil(c, "%a %b %e %H:%M:%S %Y");
        case "+": return `${formatCivil(c, "%Y-%m-%dT%H:%M:%S")}${autoFraction(c.nanos)}+00:00`;
        case "s": return c.unix.toString();
        case "t": return "\t";
        case "n": return "\n";
        case "%": return "%";
        default: return undefined;
      }
    })();
    if (part === undefined) return undefined;
    out += part;
  }
  return out;
}

interface Parsed {
  year?: number;
  yy?: number;
  month?: number;
  day?: number;
  yday?: number;
  hour?: number;
  h12?: number;
  pm?: boolean;
  minute?: number;
  second?: number;
  nanos?: number;
  unix?: number;
  weekday?: number; // 0 = Sunday
}

const MONTH_ABBR = MONTHS.map((m) => m.slice(0, 3).toLowerCase());
const DAY_ABBR = DAYS.map((d) => d.slice(0, 3).toLowerCase());

/**
 * chrono's NaiveDateTime::parse_from_str for the common specifiers; resolves the UTC instant in ms
 * (plus nanos) or undefined when the text does not match or lacks a full date and time.
 */
export function parseDatetimeFormat(text: string, fmt: string): { ms: number; nanos: number } | undefined {
  const st: Parsed = {};
  let pos = 0;
  const readNum = (min: number, max: number, signed = false): number | undefined => {
    const m = new RegExp(`^${signed ? "[+-]?" : ""}\\d{${min},${max}}`).exec(text.slice(pos));
    if (!m) return undefined;
    pos += m[0].length;
    return Number(m[0]);
  };
  const readWord = (full: string[], abbr: string[]): number | undefined => {
    // only as much of the text as the longest name: lower-casing the whole rest per field was quadratic
    const rest = text.slice(pos, pos + 9).toLowerCase();
    for (let k = 0; k < full.length; k++) {
      if (rest.startsWith(full[k]!.toLowerCase())) {
        pos += full[k]!.length;
        return k;
      }
    }
    for (let k = 0; k < abbr.length; k++) {
      if (rest.startsWith(abbr[k]!)) {
        pos += 3;
        return k;
      }
    }
    return undefined;
  };
  const expand: Record<string, string> = { "+": "%Y-%m-%dT%H:%M:%S%.f%#z", D: "%m/%d/%y", x: "%m/%d/%y", F: "%Y-%m-%d", R: "%H:%M", T: "%H:%M:%S", X: "%H:%M:%S", r: "%I:%M:%S %p", c: "%a %b %e %H:%M:%S %Y", v: "%e-%b-%Y" };
  let f = fmt;
  for (let guard = 0; guard < 4; guard++) f = f.replace(/%([+DxFRTXrcv])/g, (_m, k: string) => expand[k]!);
  for (let i = 0; i < f.length; i++) {
    const ch = f[i]!;
    if (/\s/.test(ch)) {
      while (pos < text.length && /\s/.test(text[pos]!)) pos++;
      continue;
    }
    if (ch !== "%") {
      if (text[pos] !== ch) return undefined;
      pos++;
      continue;
    }
    let spec = f[++i];
    if (spec === "-" || spec === "_" || spec === "0") spec = f[++i];
    let v: number | undefined;
    switch (spec) {
      case "Y": v = readNum(1, 9, true); st.year = v; break;
      case "y": v = readNum(1, 2); st.yy = v; break;
      case "m": v = readNum(1, 2); st.month = v; break;
      case "d": case "e":
        while (spec === "e" && text[pos] === " ") pos++;
        v = readNum(1, 2); st.day = v; break;
      case "j": v = readNum(1, 3); st.yday = v; break;
      case "H": case "k":
        while (spec === "k" && text[pos] === " ") pos++;
        v = readNum(1, 2); st.hour = v; break;
      case "I": case "l":
        while (spec === "l" && text[pos] === " ") pos++;
        v = readNum(1, 2); st.h12 = v; break;
      case "M": v = readNum(1, 2); st.minute = v; break;
      case "S": v = readNum(1, 2); st.second = v; break;
      case "b": case "h": case "B": v = readWord(MONTHS, MONTH_ABBR); if (v !== undefined) st.month = v + 1; break;
      case "a": case "A": v = readWord(DAYS, DAY_ABBR); st.weekday = v; break;
      case "p": case "P": {
        const ap = text.slice(pos, pos + 2).toLowerCase();
        if (ap !== "am" && ap !== "pm") return undefined;
        st.pm = ap === "pm";
        pos += 2;
        v = 0;
        break;
      }
      case "f": { const m = /^\d{1,9}/.exec(text.slice(pos)); if (!m) return undefined; pos += m[0].length; st.nanos = Number(m[0].padEnd(9, "0")); v = 0; break; }
      case ".": {
        // %.f / %.3f etc: optional dot and digits
        while (f[i + 1] !== undefined && f[i + 1] !== "f") i++;
        i++;
        const m = /^\.(\d{1,9})/.exec(text.slice(pos));
        if (m) { pos += m[0].length; st.nanos = Number(m[1]!.padEnd(9, "0")); }
        v = 0;
        break;
      }
      case "z": case ":": case "#": {
        if (spec !== "z") i++;
        // %#z (inside %+) also takes "Z"
        if (spec === "#" && /^[zZ]/.test(text.slice(pos))) { pos++; v = 0; break; }
        const m = /^([+-])(\d\d):?(\d\d)/.exec(text.slice(pos));
        if (!m) return undefined;
        pos += m[0].length;
        v = 0;
        break;
      }
      case "Z": { const m = /^[A-Za-z]+/.exec(text.slice(pos)); if (!m) return undefined; pos += m[0].length; v = 0; break; }
      case "s": v = readNum(1, 19, true); st.unix = v; break;
      case "%": if (text[pos] !== "%") return undefined; pos++; v = 0; break;
      case "t": case "n": while (pos < text.length && /\s/.test(text[pos]!)) pos++; v = 0; break;
      default: return undefined;
    }
    if (v === undefined) return undefined;
  }
  if (pos !== text.length) return undefined;
  if (st.unix !== undefined) return { ms: st.unix * 1000, nanos: 0 };
  const year = st.year ?? (st.yy !== undefined ? (st.yy < 70 ? 2000 + st.yy : 1900 + st.yy) : undefined);
  if (year === undefined) return undefined;
  let month = st.month;
  let day = st.day;
  if (st.yday !== undefined && (month === undefined || day === undefined)) {
    if (st.yday < 1 || st.yday > (isLeap(year) ? 366 : 365)) return undefined;
    const d = new Date(utc(year, 0, st.yday));
    month = d.getUTCMonth() + 1;
    day = d.getUTCDate();
  }
  if (month === undefined || day === undefined || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  let hour = st.hour;
  if (st.h12 !== undefined) {
    if (st.h12 < 1 || st.h12 > 12 || st.pm === undefined) return undefined;
    hour = (st.h12 % 12) + (st.pm ? 12 : 0);
  }
  if (hour === undefined || st.minute === undefined || hour > 23 || st.minute > 59 || (st.second ?? 0) > 60) return undefined;
  const date = new Date(utc(year, month - 1, day, hour, st.minute, st.second ?? 0));
  if (st.weekday !== undefined && date.getUTCDay() !== st.weekday) return undefined;
  return { ms: date.getTime(), nanos: st.nanos ?? 0 };
}
