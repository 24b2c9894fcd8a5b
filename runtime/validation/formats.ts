// The string formats generated validators check, a region each, named by the format
// (generators/emit/validate/formats.ts lists them): a generated validators.ts inlines the regions
// of the formats it checks and of those their functions call, without the `export`, so that it
// needs no library (docs/validators.md); an `mcp-gen tools` module imports them. The
// `uri-template` pattern refuses control characters by naming them, which ESLint's recommended
// config reports.
/* eslint-disable no-control-regex */
import { decimal, isAlphanumeric, isHexDigit } from "./helpers.js";

// #region byte
/**
 * `byte` (RFC 4648 base64, padded): a length that is a multiple of 4, and only base64 characters
 * but for one or two "=" at the end. The alphabet is checked by one search for a character outside
 * it (linear; an anchored /^[A-Za-z0-9+/]*$/ takes several times as long on a long string), or,
 * from BASE64_SIMD_MIN characters on (images, blobs), 32 characters at a time (base64Simd).
 */
export function isByte(s: string): boolean {
  const n = s.length;
  if (n % 4 !== 0) return false;
  if (n < BASE64_SIMD_MIN) {
    // Short strings without a copy: the alphabet and "=" in one search, then "=" only as the last
    // one or two characters.
    if (NOT_BASE64_OR_PAD.test(s)) return false;
    const pad = s.indexOf("=");
    return pad < 0 || pad === n - 1 || (pad === n - 2 && s.charCodeAt(n - 1) === 61);
  }
  const body =
    s.charCodeAt(n - 1) !== 61 ? s : s.slice(0, s.charCodeAt(n - 2) === 61 ? n - 2 : n - 1);
  const simd = base64Simd();
  if (simd !== null) return simd(body);
  return !NOT_BASE64.test(body);
}

const NOT_BASE64 = /[^A-Za-z0-9+/]/;
const NOT_BASE64_OR_PAD = /[^A-Za-z0-9+/=]/;

/** From this length on, the SIMD check's fixed cost (a copy into its memory) pays for itself. */
const BASE64_SIMD_MIN = 1024;

/** What base64Simd needs of the host, declared here so this file needs no DOM or Node types. */
interface Base64SimdHost {
  readonly WebAssembly?: {
    readonly Module: new (bytes: Uint8Array) => object;
    readonly Instance: new (module: object) => { readonly exports: unknown };
  };
  readonly TextEncoder?: new () => {
    encodeInto(s: string, into: Uint8Array): { read: number; written: number };
  };
}

let base64SimdCheck: ((body: string) => boolean) | null | undefined;

/**
 * The alphabet check as a WebAssembly SIMD loop over 32 bytes at a time: several times faster
 * than the regular expression on a 128 KiB image (BENCHMARKS.md). Built on first use; null where
 * WebAssembly, its SIMD or TextEncoder is missing or refused (old engines, a Content-Security-Policy
 * without wasm-unsafe-eval, node --jitless), and the regular expression checks every length.
 * The string is copied into the module's memory 64 KiB at a time as UTF-8, so any character
 * beyond ASCII shows as more bytes written than characters read.
 */
function base64Simd(): ((body: string) => boolean) | null {
  if (base64SimdCheck !== undefined) return base64SimdCheck;
  base64SimdCheck = null;
  const host = globalThis as Base64SimdHost;
  if (host.WebAssembly === undefined || host.TextEncoder === undefined) return null;
  try {
    const wasm = host.WebAssembly;
    const exports = new wasm.Instance(new wasm.Module(base64Module())).exports as {
      readonly m: { readonly buffer: ArrayBuffer };
      c(length: number): number;
    };
    const memory = new Uint8Array(exports.m.buffer);
    const encoder = new host.TextEncoder();
    base64SimdCheck = (body) => {
      for (let at = 0; at < body.length; at += memory.length) {
        const part = body.slice(at, at + memory.length);
        const { read, written } = encoder.encodeInto(part, memory);
        if (read !== part.length || written !== part.length) return false;
        const end = (written + 31) & ~31;
        memory.fill(65, written, end); // "A" fills the last block of 32
        if (exports.c(end) !== 1) return false;
      }
      return true;
    };
  } catch {
    // No WebAssembly SIMD here: the regular expression it is.
  }
  return base64SimdCheck;
}

/**
 * The module, in the WebAssembly text format. A byte's high nibble picks one bit of HIGH (its row
 * of the ASCII table), its low nibble the bits of LOW that mark the rows where that column is not
 * base64; the byte is base64 when the two share no bit (the nibble lookup of Muła and Lemire's
 * base64 decoders):
 *   (module
 *     (memory (export "m") 1)
 *     (func (export "c") (param $n i32) (result i32)        ;; 1 when bytes [0, $n) are all base64
 *       (local $i i32) (local $bad v128) (local $v v128) (local $high v128) (local $low v128)
 *       (local.set $high (v128.const i8x16 HIGH)) (local.set $low (v128.const i8x16 LOW))
 *       (block $done (loop $next
 *         (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
 *         ;; twice, with v128.load offset=0 and offset=16 ($n is a multiple of 32):
 *         (local.set $v (v128.load (local.get $i)))
 *         (local.set $bad (v128.or (local.get $bad) (v128.and
 *           (i8x16.swizzle (local.get $high) (i8x16.shr_u (local.get $v) (i32.const 4)))
 *           (i8x16.swizzle (local.get $low) (v128.and (local.get $v) (v128.const i8x16 0x0f ...))))))
 *         (local.set $i (i32.add (local.get $i) (i32.const 32)))
 *         (br $next)))
 *       (i32.eqz (v128.any_true (local.get $bad)))))
 */
function base64Module(): Uint8Array {
  // Row (high nibble) bits: 1 no base64 at all, 2 "+/" row, 4 digits row, 8 "@A-O" and "`a-o", 16 "P-Z" and "p-z".
  const HIGH = [1, 1, 2, 4, 8, 16, 8, 16, 1, 1, 1, 1, 1, 1, 1, 1];
  // Column (low nibble): the rows in which it is not base64.
  const LOW = [11, 3, 3, 3, 3, 3, 3, 3, 3, 3, 7, 21, 23, 23, 23, 21];
  const v128 = (bytes: number[]) => [0xfd, 0x0c, ...bytes];
  const get = (local: number) => [0x20, local];
  const set = (local: number) => [0x21, local];
  // prettier-ignore
  const block = (offset: number) => [
    ...get(4), ...get(1), 0xfd, 0x00, 0, offset, 0x22, 3, // $high, $v = v128.load offset (local.tee)
    0x41, 4, 0xfd, 0x6d, 0xfd, 0x0e, // i8x16.swizzle $high (i8x16.shr_u $v 4)
    ...get(5), ...get(3), ...v128(new Array<number>(16).fill(0x0f)), 0xfd, 0x4e, 0xfd, 0x0e, // swizzle $low ($v & 0x0f)
    0xfd, 0x4e, ...get(2), 0xfd, 0x50, ...set(2), // $bad |= both
  ];
  // prettier-ignore
  const code = [
    2, 1, 0x7f, 4, 0x7b, // locals: one i32 ($i), four v128 ($bad, $v, $high, $low)
    ...v128(HIGH), ...set(4), ...v128(LOW), ...set(5),
    0x02, 0x40, 0x03, 0x40, // block, loop
    ...get(1), ...get(0), 0x4f, 0x0d, 1, // br_if $done ($i >= $n)
    ...block(0), ...block(16),
    ...get(1), 0x41, 32, 0x6a, ...set(1), // $i += 32
    0x0c, 0, 0x0b, 0x0b, // br $next, end loop, end block
    ...get(2), 0xfd, 0x53, 0x45, 0x0b, // i32.eqz (v128.any_true $bad)
  ];
  const body = [1, ...leb128(code.length), ...code];
  // prettier-ignore
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, // "\0asm", version 1
    1, 6, 1, 0x60, 1, 0x7f, 1, 0x7f, // types: (i32) -> i32
    3, 2, 1, 0, // functions: one of type 0
    5, 3, 1, 0, 1, // memory: one page
    7, 9, 2, 1, 0x6d, 2, 0, 1, 0x63, 0, 0, // exports: "m" memory 0, "c" function 0
    10, ...leb128(body.length), ...body, // code
  ]);
}

function leb128(n: number): number[] {
  const out: number[] = [];
  do {
    out.push((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
    n >>>= 7;
  } while (n > 0);
  return out;
}
// #endregion

// #region date
/** `date` (RFC 3339 full-date): YYYY-MM-DD naming a day that exists, 29 February only in leap years. */
export function isDate(s: string): boolean {
  if (s.length !== 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return false;
  const year = decimal(s, 0, 4);
  const month = decimal(s, 5, 7);
  const day = decimal(s, 8, 10);
  if (year < 0 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days =
    month === 2
      ? leap
        ? 29
        : 28
      : month === 4 || month === 6 || month === 9 || month === 11
        ? 30
        : 31;
  return day <= days;
}
// #endregion

// #region date-time
/** `date-time`: a `date`, "T", "t" or one white-space character, then a `time`. */
const DATE_TIME_SEPARATOR = /^[Tt\s]$/;
export function isDateTime(s: string): boolean {
  return isDate(s.slice(0, 10)) && DATE_TIME_SEPARATOR.test(s.charAt(10)) && isTime(s.slice(11));
}
// #endregion

// #region duration
/**
 * `duration` (RFC 3339 appendix A, ISO 8601): "P" then either weeks alone ("P3W") or years,
 * months and days, each optional but in that order, and an optional "T" with hours, minutes and
 * seconds the same way; at least one number, each a run of digits (no fractions), and a "T"
 * only before a time number.
 */
export function isDuration(s: string): boolean {
  if (s.charCodeAt(0) !== 80 || s.length < 3) return false;
  if (s.charCodeAt(s.length - 1) === 87) return decimal(s, 1, s.length - 1) >= 0;
  const t = s.indexOf("T");
  if (t < 0) return isDurationUnits(s, 1, s.length, "YMD");
  return (
    isDurationUnits(s, 1, t, "YMD") &&
    t + 1 < s.length &&
    isDurationUnits(s, t + 1, s.length, "HMS")
  );
}

/** s[from, to) is numbers each followed by one of `units`, in their order, each at most once. */
function isDurationUnits(s: string, from: number, to: number, units: string): boolean {
  let next = 0;
  for (let i = from; i < to; i++) {
    const digits = i;
    while (i < to && decimal(s, i, i + 1) >= 0) i++;
    if (i === digits || i === to) return false;
    const unit = units.indexOf(s.charAt(i), next);
    if (unit < 0) return false;
    next = unit + 1;
  }
  return true;
}
// #endregion

// #region email
/**
 * `email` as ajv-formats reads it: a local part of dot-separated runs of letters, digits and
 * !#$%&'*+/=?^_`{|}~- (no quoted forms), "@", and a domain of two or more dot-separated labels
 * of letters, digits and inner hyphens (no length limits).
 */
export function isEmail(s: string): boolean {
  const at = s.indexOf("@");
  if (at < 0) return false;
  let afterDot = true;
  for (let i = 0; i < at; i++) {
    const c = s.charCodeAt(i);
    if (c === 46 && !afterDot) afterDot = true;
    else if (c < 128 && EMAIL_LOCAL[c] === 1) afterDot = false;
    else return false;
  }
  if (afterDot) return false;
  let labels = 0;
  let start = at + 1;
  for (let i = start; i <= s.length; i++) {
    const c = i === s.length ? 46 : s.charCodeAt(i);
    if (c === 46) {
      if (i === start || s.charCodeAt(start) === 45 || s.charCodeAt(i - 1) === 45) return false;
      labels++;
      start = i + 1;
    } else if (c !== 45 && !isAlphanumeric(c)) {
      return false;
    }
  }
  return labels >= 2;
}

/** The characters of a local part besides ".", by char code. */
const EMAIL_LOCAL = (() => {
  const table = new Uint8Array(128);
  for (const ch of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+/=?^_`{|}~-") {
    table[ch.charCodeAt(0)] = 1;
  }
  return table;
})();
// #endregion

// #region hostname
/**
 * `hostname` (RFC 1123) as ajv-formats reads it: dot-separated labels of 1 to 63 letters, digits
 * and inner hyphens, at most 253 characters not counting one final dot, which is allowed.
 */
export function isHostname(s: string): boolean {
  const end = s.charCodeAt(s.length - 1) === 46 ? s.length - 1 : s.length;
  if (end === 0 || end > 253) return false;
  let start = 0;
  for (let i = 0; i <= end; i++) {
    const c = i === end ? 46 : s.charCodeAt(i);
    if (c === 46) {
      if (i === start || i - start > 63 || s.charCodeAt(start) === 45 || s.charCodeAt(i - 1) === 45)
        return false;
      start = i + 1;
    } else if (c !== 45 && !isAlphanumeric(c)) {
      return false;
    }
  }
  return true;
}
// #endregion

// #region ipv4
/**
 * `ipv4`: four dotted decimal octets, each 0 to 255 without leading zeros. The length test
 * first, so the expression only ever sees short strings.
 */
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
export function isIpv4(s: string): boolean {
  return s.length <= 15 && IPV4.test(s);
}
// #endregion

// #region ipv6
/**
 * `ipv6` (RFC 4291 text form): eight groups of 1 to 4 hex digits, the last two of which may be
 * an `ipv4` address; or at most seven around one "::", which stands for one group or more.
 */
export function isIpv6(s: string): boolean {
  const gap = s.indexOf("::");
  if (gap < 0) return ipv6Groups(s, 0, s.length, true) === 8;
  if (s.indexOf("::", gap + 1) >= 0) return false;
  const before = gap === 0 ? 0 : ipv6Groups(s, 0, gap, false);
  const after = gap + 2 === s.length ? 0 : ipv6Groups(s, gap + 2, s.length, true);
  return before >= 0 && after >= 0 && before + after <= 7;
}

/** How many groups s[from, to) holds (a final IPv4 address counts two, where allowed), or -1. */
function ipv6Groups(s: string, from: number, to: number, ipv4Last: boolean): number {
  let groups = 0;
  for (let start = from; ; groups++) {
    if (groups === 8) return -1; // no address has more, however the text goes on
    let end = start;
    while (end < to && isHexDigit(s.charCodeAt(end))) end++;
    if (end < to && s.charCodeAt(end) === 46)
      return ipv4Last && isIpv4(s.slice(start, to)) ? groups + 2 : -1;
    if (end === start || end - start > 4) return -1;
    if (end === to) return groups + 1;
    if (s.charCodeAt(end) !== 58) return -1;
    start = end + 1;
  }
}
// #endregion

// #region json-pointer
/** `json-pointer` (RFC 6901): empty, or "/"-led reference tokens where "~" is only ever "~0" or "~1". */
export function isJsonPointer(s: string): boolean {
  if (s.length > 0 && s.charCodeAt(0) !== 47) return false;
  for (let i = s.indexOf("~"); i >= 0; i = s.indexOf("~", i + 1)) {
    const next = s.charCodeAt(i + 1);
    if (next !== 48 && next !== 49) return false;
  }
  return true;
}
// #endregion

// #region time
/**
 * `time` (RFC 3339 full-time) as ajv-formats reads it: HH:MM:SS, an optional fraction, and a
 * time zone ("Z", or a sign with HH, HHMM or HH:MM, at most 23 hours and 59 minutes). Up to
 * 23:59 and below 60 seconds always; otherwise a leap second, below 61 seconds, when the time
 * less the offset comes to 23:59 in UTC, by ajv-formats' arithmetic (kept as is, so that both
 * give the same verdicts).
 */
export function isTime(s: string): boolean {
  if (s.charCodeAt(2) !== 58 || s.charCodeAt(5) !== 58) return false;
  const hour = decimal(s, 0, 2);
  const minute = decimal(s, 3, 5);
  if (hour < 0 || minute < 0 || decimal(s, 6, 8) < 0) return false;
  let zone = 8;
  if (s.charCodeAt(zone) === 46) {
    do zone++;
    while (decimal(s, zone, zone + 1) >= 0);
    if (zone === 9) return false;
  }
  const sign = s.charCodeAt(zone);
  let zoneHour = 0;
  let zoneMinute = 0;
  if (sign === 43 || sign === 45) {
    zoneHour = decimal(s, zone + 1, zone + 3);
    const rest = s.length - zone - 3;
    if (rest === 2) zoneMinute = decimal(s, zone + 3, zone + 5);
    else if (rest === 3 && s.charCodeAt(zone + 3) === 58)
      zoneMinute = decimal(s, zone + 4, zone + 6);
    else if (rest !== 0) return false;
    if (zoneHour < 0 || zoneHour > 23 || zoneMinute < 0 || zoneMinute > 59) return false;
  } else if ((sign | 32) !== 122 || s.length !== zone + 1) {
    return false;
  }
  const second = Number(s.slice(6, zone));
  if (hour <= 23 && minute <= 59 && second < 60) return true;
  const offset = sign === 45 ? -1 : 1;
  const utcMinute = minute - zoneMinute * offset;
  const utcHour = hour - zoneHour * offset - (utcMinute < 0 ? 1 : 0);
  return (
    (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1) && second < 61
  );
}
// #endregion

// #region uri
/**
 * `uri`: an absolute URI by RFC 3986, with the readings ajv-formats gives the grammar: a
 * non-empty hierarchical part, and an authority that may also follow a single "/".
 * A linear scan; only the bracketed IP literal uses a regular expression, on a short string.
 */
export function isUri(s: string): boolean {
  // Most URIs are a scheme and plain path, query and fragment characters: one native pass.
  // Anything else (percent-encodings, userinfo, IP literals, a port, or a very long string)
  // takes the full scan below. Every string the pattern accepts, the scan accepts too.
  return (s.length <= 8192 && SIMPLE_URI.test(s)) || isUriScan(s);
}

const SIMPLE_URI =
  /^[a-z][a-z0-9+.-]*:[a-z0-9\-._~!$&'()*+,;=:@/]+(?:\?[a-z0-9\-._~!$&'()*+,;=:@/?]*)?(?:#[a-z0-9\-._~!$&'()*+,;=:@/?]*)?$/i;

function isUriScan(s: string): boolean {
  const colon = s.indexOf(":");
  if (colon < 1 || !isSchemeChars(s, colon)) return false;
  let end = s.length;
  const hash = s.indexOf("#", colon);
  if (hash >= 0) {
    if (!isUriChars(s, hash + 1, end, QUERY_CHAR)) return false;
    end = hash;
  }
  const question = s.indexOf("?", colon);
  if (question >= 0 && question < end) {
    if (!isUriChars(s, question + 1, end, QUERY_CHAR)) return false;
    end = question;
  }
  const start = colon + 1;
  if (start === end) return false;
  if (s.charCodeAt(start) !== 47) return isUriChars(s, start, end, PATH_CHAR);
  return (
    isUriChars(s, start + 1, end, PATH_CHAR) ||
    isAuthorityPath(s, start + 1, end) ||
    (s.charCodeAt(start + 1) === 47 && isAuthorityPath(s, start + 2, end))
  );
}

function isSchemeChars(s: string, end: number): boolean {
  const first = s.charCodeAt(0) | 32;
  if (first < 97 || first > 122) return false;
  for (let i = 1; i < end; i++) {
    const c = s.charCodeAt(i);
    const lower = c | 32;
    if (!(
      (lower >= 97 && lower <= 122) ||
      (c >= 48 && c <= 57) ||
      c === 43 ||
      c === 45 ||
      c === 46
    ))
      return false;
  }
  return true;
}

/** unreserved / sub-delims, by char code (ASCII only). */
const URI_BASE = (() => {
  const table = new Uint8Array(128);
  for (const ch of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=") {
    table[ch.charCodeAt(0)] = 1;
  }
  return table;
})();
const USERINFO_CHAR = 1;
const REG_NAME_CHAR = 2;
const PATH_CHAR = 3;
const QUERY_CHAR = 4;

function isUriChar(c: number, kind: number): boolean {
  if (c < 128 && URI_BASE[c] === 1) return true;
  if (c === 58) return kind !== REG_NAME_CHAR; // ":"
  if (c === 64) return kind >= PATH_CHAR; // "@"
  if (c === 47 || c === 63) return kind === QUERY_CHAR || (c === 47 && kind === PATH_CHAR); // "/" "?"
  return false;
}

/** Every character of s[from, to) is of the kind, or a valid percent-encoding. */
function isUriChars(s: string, from: number, to: number, kind: number): boolean {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c === 37) {
      if (i + 2 >= to) return false;
      if (!isHexDigit(s.charCodeAt(i + 1)) || !isHexDigit(s.charCodeAt(i + 2))) return false;
      i += 2;
    } else if (!isUriChar(c, kind)) {
      return false;
    }
  }
  return true;
}

/** authority path-abempty: the authority runs to the first "/". */
function isAuthorityPath(s: string, from: number, to: number): boolean {
  let slash = s.indexOf("/", from);
  if (slash < 0 || slash > to) slash = to;
  if (!isUriChars(s, slash, to, PATH_CHAR)) return false;
  let hostStart = from;
  const at = s.indexOf("@", from);
  if (at >= 0 && at < slash) {
    if (!isUriChars(s, from, at, USERINFO_CHAR)) return false;
    hostStart = at + 1;
  }
  let portStart: number;
  if (s.charCodeAt(hostStart) === 91) {
    const close = s.indexOf("]", hostStart);
    if (close < 0 || close >= slash) return false;
    if (!IP_LITERAL.test(s.slice(hostStart + 1, close))) return false;
    portStart = close + 1;
    if (portStart < slash && s.charCodeAt(portStart) !== 58) return false;
  } else {
    let colon = s.indexOf(":", hostStart);
    if (colon < 0 || colon > slash) colon = slash;
    if (!isUriChars(s, hostStart, colon, REG_NAME_CHAR)) return false;
    portStart = colon;
  }
  for (let i = portStart + 1; i < slash; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** The inside of "[...]": an IPv6 address (RFC 3986 section 3.2.2; octets as ajv-formats reads them) or IPvFuture. */
const IP_LITERAL = (() => {
  const h16 = "[0-9a-f]{1,4}";
  const octet = "(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)";
  const ls32 = `(?:${h16}:${h16}|(?:${octet}\\.){3}${octet})`;
  const ipv6 = [
    `(?:${h16}:){6}${ls32}`,
    `::(?:${h16}:){5}${ls32}`,
    `(?:${h16})?::(?:${h16}:){4}${ls32}`,
    `(?:(?:${h16}:){0,1}${h16})?::(?:${h16}:){3}${ls32}`,
    `(?:(?:${h16}:){0,2}${h16})?::(?:${h16}:){2}${ls32}`,
    `(?:(?:${h16}:){0,3}${h16})?::${h16}:${ls32}`,
    `(?:(?:${h16}:){0,4}${h16})?::${ls32}`,
    `(?:(?:${h16}:){0,5}${h16})?::${h16}`,
    `(?:(?:${h16}:){0,6}${h16})?::`,
  ].join("|");
  return new RegExp(`^(?:${ipv6}|v[0-9a-f]+\\.[a-z0-9\\-._~!$&'()*+,;=:]+)$`, "i");
})();
// #endregion

// #region uri-template
/**
 * `uri-template` (RFC 6570 level 4 syntax), as ajv-formats reads it: variable names are
 * letters, digits, "_" and percent-encodings (no "."). A linear scan.
 */
export function isUriTemplate(s: string): boolean {
  // Most templates are literal characters and simple expressions ({id}, {+path}, {?a,b*}): one
  // native pass. Anything else (percent-encodings, prefixes, long strings) takes the scan below.
  // Every string the pattern accepts, the scan accepts too.
  return (s.length <= 8192 && SIMPLE_URI_TEMPLATE.test(s)) || isUriTemplateScan(s);
}

const SIMPLE_URI_TEMPLATE =
  /^[^\x00-\x20"'%<>\\^`{|}]*(?:\{[+#./;?&=,!@|]?\w+\*?(?:,\w+\*?)*\}[^\x00-\x20"'%<>\\^`{|}]*)*$/;

function isUriTemplateScan(s: string): boolean {
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 123) {
      const close = s.indexOf("}", i);
      if (close < 0 || !isTemplateExpression(s, i + 1, close)) return false;
      i = close;
    } else if (c === 37) {
      if (i + 2 >= n || !isHexDigit(s.charCodeAt(i + 1)) || !isHexDigit(s.charCodeAt(i + 2)))
        return false;
      i += 2;
    } else if (
      c <= 32 ||
      c === 34 ||
      c === 39 ||
      c === 60 ||
      c === 62 ||
      c === 92 ||
      c === 94 ||
      c === 96 ||
      c === 124 ||
      c === 125
    ) {
      return false;
    }
  }
  return true;
}

/** operator? varspec ("," varspec)*, where varspec = varname (":" 1-9 0-9{0,3} | "*")? */
function isTemplateExpression(s: string, from: number, to: number): boolean {
  let i = from;
  if (i < to && "+#./;?&=,!@|".includes(s.charAt(i))) i++;
  for (;;) {
    const nameStart = i;
    while (i < to) {
      const c = s.charCodeAt(i);
      const lower = c | 32;
      if ((lower >= 97 && lower <= 122) || (c >= 48 && c <= 57) || c === 95) {
        i++;
      } else if (
        c === 37 &&
        i + 2 < to &&
        isHexDigit(s.charCodeAt(i + 1)) &&
        isHexDigit(s.charCodeAt(i + 2))
      ) {
        i += 3;
      } else {
        break;
      }
    }
    if (i === nameStart) return false;
    if (i < to && s.charCodeAt(i) === 42) {
      i++;
    } else if (i < to && s.charCodeAt(i) === 58) {
      const digits = ++i;
      while (i < to && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
      if (i === digits || i - digits > 4 || s.charCodeAt(digits) === 48) return false;
    }
    if (i === to) return true;
    if (s.charCodeAt(i) !== 44) return false;
    i++;
  }
}
// #endregion

// #region uuid
/**
 * `uuid` (RFC 4122 text): 8-4-4-4-12 hex digits, optionally after "urn:uuid:" (either case).
 * The length test first, so the expression only ever sees short strings.
 */
const UUID = /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
export function isUuid(s: string): boolean {
  return (s.length === 36 || s.length === 45) && UUID.test(s);
}
// #endregion
