// fast-check arbitraries derived from the model (never from schema.json): valid instances of
// every declaration, and mutants of them (invalid or borderline) for differential tests.
//
// Valid instances respect required/optional properties, literal values, unions, intersections,
// arrays, index signatures, `unknown` (any JSON), integer vs number (`conventions.numberType`,
// overridden by a property's `@TJS-type` and in scalar unions), @minimum/@maximum, @maxItems,
// @nullable and the formats (`formatStrings`). Recursion is cut at a container depth, after which
// the smallest valid value of each type is used.
//
// Mutants change a valid instance at one place, at the root or up to `mutationLevels` (2)
// objects or arrays down: a required property dropped, a literal replaced by a wrong one, a value of
// the wrong JSON type, a number out of range or not an integer, a malformed format string, an
// extra property (including `__proto__` and `constructor`, built with JSON.parse so they are own
// properties), an array longer than @maxItems. A mutant can still be valid (a wrong member of
// one union branch may fit another; an extra field is allowed on an open object): that is the
// borderline half of the mix, and the differential compares verdicts, not expectations.
//
// `formatStrings(format)` gives valid, broken and random strings of each format on their own,
// and `nested(name, levels)` deep instances of the recursive types (JSONValue).
//
// Every value is a JSON value; callers still validate `JSON.parse(JSON.stringify(value))`.
import fc from "fast-check";
import { unionNumberType } from "../../generators/model/json-numbers.js";
import type {
  Constraints,
  Declaration,
  IndexSignature,
  LiteralValue,
  Model,
  NodeOf,
  Property,
  TypeNode,
} from "../../generators/model/model.js";

export interface Mutant {
  value: unknown;
  /** Where and how the valid instance was changed: `/params/uri: bad uri`. */
  mutation: string;
}

export interface ModelArbitraryOptions {
  /** Container nesting after which only the smallest valid values are generated (default 5). */
  maxDepth?: number;
  /** How many containers below the root a mutation may land (default 2). */
  mutationLevels?: number;
  /** Longest generated array, unless @maxItems asks for more (default 3). */
  maxArrayLength?: number;
}

export interface ShapeLike {
  properties: Property[];
  indexSignature?: IndexSignature | undefined;
}

type Arb<T = unknown> = fc.Arbitrary<T>;

/** Keys that are properties of Object.prototype or otherwise awkward; used for extra fields. */
const AWKWARD_KEYS = [
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "prototype",
  "__defineGetter__",
  "isPrototypeOf",
  "",
  " ",
  "0",
  "length",
  "extra",
  "a/b",
  "~1",
  "é",
  "\u0000",
];

/** `{ ...object, [key]: value }` with `key` an own data property even for `__proto__` (built by JSON.parse). */
export function withOwnProperty(object: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const entry = JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(value) ?? "null"}}`) as Record<string, unknown>;
  return { ...object, ...entry };
}

/** The object without `key` (an own-property copy, so `__proto__` keys survive). */
function without(object: Record<string, unknown>, key: string): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const k of Object.keys(object)) {
    if (k !== key)
      Object.defineProperty(copy, k, { value: object[k], enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

// ---------------------------------------------------------------------------------------------
// Wrong values

type JsonKind = "null" | "boolean" | "integer" | "number" | "string" | "array" | "object";

const WRONG_BY_KIND: Record<JsonKind, unknown[]> = {
  null: [null],
  boolean: [true, false],
  integer: [0, -1, 7, 2 ** 53],
  number: [1.5, -0.25, 1e-7],
  string: ["", "text", "1", "true", "null"],
  array: [[], [1], ["a", null], [{}]],
  object: [{}, { k: "v" }, { type: "text" }],
};

/** Values of every JSON kind except the given ones. */
function wrongTypeValues(exclude: JsonKind[]): unknown[] {
  return (Object.keys(WRONG_BY_KIND) as JsonKind[])
    .filter((k) => !exclude.includes(k))
    .flatMap((k) => WRONG_BY_KIND[k]);
}

function mutantOf(values: unknown[], mutation: string): Arb<Mutant> {
  return fc.constantFrom(...values).map((value) => ({ value, mutation }));
}

// ---------------------------------------------------------------------------------------------
// Formats

const ALPHA = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGIT = "0123456789";
const HEX = "0123456789abcdefABCDEF";
const SUB_DELIMS = "!$&'()*+,;=";

const chars = (set: string): Arb<string> => fc.constantFrom(...[...set]);
const join = (parts: Arb<string>[]): Arb<string> => fc.tuple(...parts).map((p) => p.join(""));
const repeat = (part: Arb<string>, minLength: number, maxLength: number): Arb<string> =>
  fc.array(part, { minLength, maxLength }).map((p) => p.join(""));
const optional = (part: Arb<string>): Arb<string> => fc.oneof(fc.constant(""), part);

const pctEncoded = join([fc.constant("%"), chars(HEX), chars(HEX)]);
const unreserved = fc.oneof({ arbitrary: chars(ALPHA + DIGIT), weight: 4 }, { arbitrary: chars("-._~"), weight: 1 });
const subDelim = chars(SUB_DELIMS);
const pchar = fc.oneof(
  { arbitrary: unreserved, weight: 6 },
  { arbitrary: subDelim, weight: 1 },
  { arbitrary: chars(":@"), weight: 1 },
  { arbitrary: pctEncoded, weight: 1 },
);
const segment = repeat(pchar, 0, 8);
const segmentNz = repeat(pchar, 1, 8);
const pathAbempty = repeat(
  segment.map((s) => `/${s}`),
  0,
  3,
);

const decOctet = fc.oneof(
  fc.integer({ min: 0, max: 255 }).map(String),
  fc.integer({ min: 0, max: 99 }).map((n) => `0${n}`), // leading zeros, as ajv-formats reads octets
);
const ipv4 = fc.oneof(
  fc.ipV4(),
  fc.tuple(decOctet, decOctet, decOctet, decOctet).map((o) => o.join(".")),
);
/** Dotted numbers that are not IPv4 addresses (fine as a host name, not inside brackets). */
const nearIpv4 = fc.oneof(
  fc.ipV4Extended(),
  fc
    .tuple(decOctet, decOctet, decOctet, fc.constantFrom("256", "300", "0000", "1234", "-1", ""))
    .map((o) => o.join(".")),
);
const h16 = repeat(chars(HEX), 1, 4);
const ipv6 = fc.oneof(
  { arbitrary: fc.ipV6(), weight: 4 },
  {
    arbitrary: fc.tuple(fc.constantFrom("::ffff:", "1:2:3:4:5:6:", "::", "a::b:"), ipv4).map(([a, b]) => a + b),
    weight: 1,
  },
  { arbitrary: fc.constantFrom("::", "::1", "1::", "1:2:3:4:5:6:7:8", "FFFF::", "0:0:0:0:0:0:0:0"), weight: 1 },
);
/** IPv6-like text that is mostly not an address: wrong group counts, 5-digit groups, two "::". */
const nearIpv6 = fc.oneof(
  {
    arbitrary: fc
      .tuple(
        fc.array(h16, { minLength: 0, maxLength: 9 }),
        fc.nat(9),
        fc.boolean(),
        fc.option(fc.oneof(ipv4, nearIpv4), { nil: "" }),
      )
      .map(([groups, at, compress, tail]) => {
        const parts = groups.slice();
        if (compress) parts.splice(Math.min(at, parts.length), 0, "");
        let text = parts.join(":");
        if (compress && text.startsWith(":")) text = `:${text}`;
        if (compress && text.endsWith(":")) text = `${text}:`;
        return tail ? `${text}:${tail}` : text;
      }),
    weight: 3,
  },
  {
    arbitrary: fc.constantFrom(
      "1:2:3:4:5:6:7:8:9",
      "1::2::3",
      "12345::",
      "::g",
      ":",
      ":::",
      "1:2:3:4:5:6:7",
      "::ffff:256.1.1.1",
    ),
    weight: 1,
  },
);
/** IPvFuture, including long ones (RFC 3986 sets no length limit). */
const ipvFuture = join([
  chars("vV"),
  repeat(chars(HEX), 1, 3),
  fc.constant("."),
  fc.oneof(
    repeat(fc.oneof(unreserved, subDelim, fc.constant(":")), 1, 12),
    repeat(fc.oneof(unreserved, subDelim, fc.constant(":")), 40, 90),
  ),
]);
const regName = fc.oneof(
  { arbitrary: fc.domain(), weight: 3 },
  { arbitrary: repeat(fc.oneof(unreserved, subDelim, pctEncoded), 0, 12), weight: 2 },
);
const host = fc.oneof(
  { arbitrary: regName, weight: 4 },
  { arbitrary: fc.oneof(ipv4, nearIpv4), weight: 2 },
  { arbitrary: ipv6.map((a) => `[${a}]`), weight: 2 },
  { arbitrary: ipvFuture.map((a) => `[${a}]`), weight: 1 },
);
const userinfo = optional(
  repeat(fc.oneof(unreserved, subDelim, pctEncoded, fc.constant(":")), 0, 8).map((u) => `${u}@`),
);
const port = optional(repeat(chars(DIGIT), 0, 5).map((p) => `:${p}`));
const authority = join([userinfo, host, port]);
const scheme = fc.oneof(
  fc.constantFrom("http", "https", "file", "urn", "mailto", "data", "HTTPS", "x-custom", "a", "git+ssh", "z39.50r"),
  join([chars(ALPHA), repeat(chars(ALPHA + DIGIT + "+-."), 0, 6)]),
);
const hierPart = fc.oneof(
  { arbitrary: join([fc.constant("//"), authority, pathAbempty]), weight: 4 },
  // ajv-formats also reads an authority after a single "/"
  { arbitrary: join([fc.constant("/"), authority, pathAbempty]), weight: 1 },
  { arbitrary: join([fc.constant("/"), optional(join([segmentNz, pathAbempty]))]), weight: 2 },
  { arbitrary: join([segmentNz, pathAbempty]), weight: 2 },
);
const queryOrFragmentChars = repeat(fc.oneof(pchar, chars("/?")), 0, 10);
const uriValid = fc.oneof(
  {
    arbitrary: join([
      scheme,
      fc.constant(":"),
      hierPart,
      optional(queryOrFragmentChars.map((q) => `?${q}`)),
      optional(queryOrFragmentChars.map((f) => `#${f}`)),
    ]),
    weight: 6,
  },
  { arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }), weight: 2 },
  {
    arbitrary: fc.constantFrom(
      "https://example.com/a",
      "file:///tmp/x",
      "urn:isbn:0451450523",
      "mailto:a@example.com",
      "data:text/plain;base64,SGVsbG8=",
      "a:b",
      "a:/",
      "a://",
      "HTTP://[::1]:80/",
      "x://[v7.a:b]",
      "x://001.002.003.004",
      "s://u:p@h:1/p?q#f",
    ),
    weight: 1,
  },
);

/** URIs that are almost right: a bad IP literal, an empty hierarchical part, a misplaced bracket. */
const uriNearlyValid = fc.oneof(
  {
    arbitrary: join([
      scheme,
      fc.constantFrom("://", ":/"),
      userinfo,
      fc.oneof(
        nearIpv6.map((a) => `[${a}]`),
        ipv6,
        fc.constantFrom(
          "[v.x]",
          "[vz.x]",
          "[v1.]",
          "[v1]",
          "[v1.a b]",
          "[v1.a/b]",
          "[v1.a]x",
          "[]",
          "[",
          "]",
          "[[::1]]",
        ),
      ),
      port,
      pathAbempty,
    ]),
    weight: 4,
  },
  {
    arbitrary: fc.constantFrom("a:", "a:?", "a:#", "a:?q#f", ":b", "1a:b", "a b:c", "//h/p", "/p", "p", "", "a:\\b"),
    weight: 1,
  },
);

const URI_TEMPLATE_OPERATORS = "+#./;?&=,!@|";
const varchar = fc.oneof({ arbitrary: chars(ALPHA + DIGIT + "_"), weight: 6 }, { arbitrary: pctEncoded, weight: 1 });
const modifier = fc.oneof(
  { arbitrary: fc.constant(""), weight: 3 },
  { arbitrary: fc.constant("*"), weight: 1 },
  { arbitrary: join([chars("123456789"), repeat(chars(DIGIT), 0, 3)]).map((n) => `:${n}`), weight: 1 },
);
const varspec = join([repeat(varchar, 1, 6), modifier]);
const expression = join([
  optional(chars(URI_TEMPLATE_OPERATORS)),
  fc.array(varspec, { minLength: 1, maxLength: 3 }).map((v) => v.join(",")),
]).map((e) => `{${e}}`);
const templateLiteral = repeat(
  fc.oneof(
    { arbitrary: chars(ALPHA + DIGIT + "!#$&()*+,-./:;=?@[]_~"), weight: 8 },
    { arbitrary: fc.constantFrom("é", "€", "😀", "\u007f", "\u00a0"), weight: 1 },
    { arbitrary: pctEncoded, weight: 1 },
  ),
  0,
  8,
);
const uriTemplateValid = fc.oneof(
  { arbitrary: repeat(fc.oneof(templateLiteral, expression), 0, 5), weight: 6 },
  { arbitrary: join([uriValid.map((u) => u.replaceAll("'", "%27")), optional(expression)]), weight: 2 },
  {
    arbitrary: fc.constantFrom(
      "file:///{path}",
      "{+base}/x{?q,r*}",
      "{x:1}{y:9999}",
      "{%41}",
      "",
      "a{.x}{/y}{;z}{&w}{#v}",
    ),
    weight: 1,
  },
);

const byteValid = fc.oneof(
  { arbitrary: fc.uint8Array({ maxLength: 24 }).map((b) => Buffer.from(b).toString("base64")), weight: 6 },
  { arbitrary: fc.base64String({ maxLength: 24 }), weight: 2 },
  { arbitrary: fc.constantFrom("", "AAAA", "AA==", "AAA=", "+/+/", "////"), weight: 1 },
);

// Formats of tool schemas (no protocol revision uses them): valid strings, and nearly valid ones
// that probe each rule (day and month ranges, leap years, leap seconds, offsets, label lengths).

const pad = (n: number, width: number) => String(n).padStart(width, "0");
const daysIn = (year: number, month: number) =>
  month === 2
    ? year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
      ? 29
      : 28
    : [4, 6, 9, 11].includes(month)
      ? 30
      : 31;
const year = fc.oneof(
  fc.integer({ min: 0, max: 9999 }),
  fc.constantFrom(0, 4, 100, 400, 1600, 1900, 2000, 2023, 2024, 2100, 2400, 9999),
);
const dateValid = fc
  .tuple(
    year,
    fc.integer({ min: 1, max: 12 }),
    fc.oneof(fc.integer({ min: 1, max: 31 }), fc.constantFrom(28, 29, 30, 31)),
  )
  .map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(Math.min(d, daysIn(y, m)), 2)}`);
/** Dates with every field a little out of range or misshapen: 29 February of any year, day 0 and 32, month 13. */
const dateNearlyValid = fc
  .tuple(
    year,
    fc.integer({ min: 0, max: 13 }),
    fc.integer({ min: 0, max: 32 }),
    fc.constantFrom([4, 2, 2], [4, 2, 2], [4, 2, 2], [4, 1, 2], [5, 2, 2], [4, 2, 3]),
  )
  .map(([y, m, d, [wy, wm, wd]]) => `${pad(y, wy as number)}-${pad(m, wm as number)}-${pad(d, wd as number)}`);

const fraction = optional(repeat(chars(DIGIT), 1, 6).map((f) => `.${f}`));
const zoneOffset = fc.tuple(chars("+-"), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }));
const zone = fc.oneof(
  chars("Zz"),
  fc
    .tuple(zoneOffset, fc.constantFrom(":", "", "-"))
    .map(([[sign, h, m], colon]) =>
      colon === "-" ? `${sign}${pad(h, 2)}` : `${sign}${pad(h, 2)}${colon}${pad(m, 2)}`,
    ),
);
const timeValid = fc.oneof(
  {
    arbitrary: fc
      .tuple(
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 0, max: 59 }),
        fraction,
        zone,
      )
      .map(([h, m, sec, f, z]) => `${pad(h, 2)}:${pad(m, 2)}:${pad(sec, 2)}${f}${z}`),
    weight: 3,
  },
  {
    // A leap second: 23:59:60 UTC in local time.
    arbitrary: fc.tuple(zoneOffset, fraction).map(([[sign, h, m], f]) => {
      const local = (((23 * 60 + 59 + (sign === "+" ? 1 : -1) * (h * 60 + m)) % 1440) + 1440) % 1440;
      return `${pad(Math.floor(local / 60), 2)}:${pad(local % 60, 2)}:60${f}${sign}${pad(h, 2)}:${pad(m, 2)}`;
    }),
    weight: 1,
  },
);
/** Times near the limits: hours to 29, minutes and seconds to 61, offsets to 25:61, fractions that round to 60. */
const timeNearlyValid = fc
  .tuple(
    fc.oneof(fc.integer({ min: 0, max: 29 }), fc.constantFrom(0, 23, 24)),
    fc.oneof(fc.integer({ min: 0, max: 61 }), fc.constantFrom(0, 59, 60)),
    fc.constantFrom("00", "59", "60", "61", "59.999", "60.5", "60.999", "59.99999999999999999", "5", "600"),
    fc.oneof(
      zone,
      fc
        .tuple(chars("+-"), fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }))
        .map(([sign, h, m]) => `${sign}${pad(h, 2)}:${pad(m, 2)}`),
      fc.constantFrom("", "+1", "+01:", "+01:0", "+0100:", "Z+01:00", "UTC"),
    ),
  )
  .map(([h, m, sec, z]) => `${pad(h, 2)}:${pad(m, 2)}:${sec}${z}`);
const dateTimeSeparator = fc.oneof(
  { arbitrary: chars("Tt"), weight: 4 },
  { arbitrary: fc.constantFrom(" ", "\t", "\n", "\u00a0", "\u2028", "\u3000", "\ufeff"), weight: 1 },
);
const dateTimeValid = join([dateValid, dateTimeSeparator, timeValid]);
const dateTimeNearlyValid = join([
  fc.oneof(dateValid, dateNearlyValid),
  fc.oneof(dateTimeSeparator, fc.constantFrom("", "TT", "T ", "_", "x", "\u200b")),
  fc.oneof(timeValid, timeNearlyValid),
]);

const alnum = chars(ALPHA + DIGIT);
/** A label of letters, digits and inner hyphens, of `min` to `max` characters. */
const label = (min: number, max: number): Arb<string> =>
  fc
    .integer({ min, max })
    .chain((length) =>
      length === 1
        ? alnum
        : join([
            alnum,
            repeat(
              fc.oneof({ arbitrary: alnum, weight: 4 }, { arbitrary: fc.constant("-"), weight: 1 }),
              length - 2,
              length - 2,
            ),
            alnum,
          ]),
    );
const EMAIL_LOCAL_CHARS = `${ALPHA}${DIGIT}!#$%&'*+/=?^_\`{|}~-`;
const emailValid = join([
  fc.array(repeat(chars(EMAIL_LOCAL_CHARS), 1, 6), { minLength: 1, maxLength: 3 }).map((a) => a.join(".")),
  fc.constant("@"),
  fc.array(label(1, 12), { minLength: 2, maxLength: 4 }).map((a) => a.join(".")),
]);
const emailNearlyValid = join([
  repeat(fc.oneof(chars(EMAIL_LOCAL_CHARS), chars('.@"() ,:;<>[\\]é')), 0, 6),
  fc.constantFrom("@", "@@", "", "@.", "@-"),
  repeat(fc.oneof(alnum, chars(".-_@"), fc.constantFrom("é", "[1.2.3.4]")), 0, 12),
]);

const uuidValid = fc.oneof(
  { arbitrary: fc.uuid(), weight: 3 },
  { arbitrary: fc.uuid().map((u) => u.toUpperCase()), weight: 1 },
  { arbitrary: join([fc.constantFrom("urn:uuid:", "URN:UUID:", "Urn:Uuid:"), fc.uuid()]), weight: 1 },
);

const ipv4Valid = fc.ipV4();
const ipv6Valid = fc.oneof(
  { arbitrary: fc.ipV6(), weight: 4 },
  {
    arbitrary: fc
      .tuple(fc.constantFrom("::ffff:", "1:2:3:4:5:6:", "::", "a::b:", "1:2:3:4:5::"), fc.ipV4())
      .map(([a, b]) => a + b),
    weight: 1,
  },
  {
    arbitrary: fc.constantFrom(
      "::",
      "::1",
      "1::",
      "1:2:3:4:5:6:7:8",
      "1:2:3:4:5:6:7::",
      "::2:3:4:5:6:7:8",
      "FFFF::",
      "0:0:0:0:0:0:0:0",
    ),
    weight: 1,
  },
);

const hostnameValid = fc.oneof(
  { arbitrary: fc.domain(), weight: 3 },
  { arbitrary: fc.array(label(1, 63), { minLength: 1, maxLength: 4 }).map((a) => a.join(".")), weight: 2 },
  {
    arbitrary: fc.constantFrom("localhost", "a", "1", "123.456", "a-b.c", "example.com.", `${"a".repeat(63)}.b`),
    weight: 1,
  },
);
/** Labels and names around the length limits (63 and 253), hyphens at label ends, final and double dots. */
const hostnameNearlyValid = fc.oneof(
  fc
    .tuple(fc.integer({ min: 60, max: 66 }), fc.integer({ min: 0, max: 3 }))
    .map(([n, dots]) => "a".repeat(n) + ".".repeat(dots)),
  fc
    .tuple(fc.integer({ min: 248, max: 256 }), fc.constantFrom("", ".", ".."))
    .map(([n, end]) => `${"abcdefghi.".repeat(26).slice(0, n).replace(/\.$/, "x")}${end}`),
  fc
    .array(fc.oneof(label(1, 8), fc.constantFrom("-a", "a-", "", "_a", "é", "a b")), { minLength: 1, maxLength: 4 })
    .map((a) => a.join(".")),
);

const durationNumber = fc.oneof(repeat(chars(DIGIT), 1, 3), fc.constant("0"));
const durationUnits = (units: string) =>
  fc
    .subarray([...units])
    .chain((chosen) => fc.tuple(...chosen.map((u) => durationNumber.map((n) => n + u))).map((parts) => parts.join("")));
const durationValid = fc.oneof(
  fc
    .tuple(durationUnits("YMD"), fc.option(durationUnits("HMS").filter((t) => t !== "")))
    .filter(([date, time]) => date !== "" || time !== null)
    .map(([date, time]) => `P${date}${time === null ? "" : `T${time}`}`),
  durationNumber.map((n) => `P${n}W`),
);
const durationNearlyValid = join([
  fc.constantFrom("P", "P", "P", "p", ""),
  repeat(fc.oneof(durationNumber, chars("YMDWTHS"), fc.constantFrom(".5", ",5", "-1")), 0, 6),
]);

const jsonPointerValid = repeat(
  repeat(
    fc.oneof(
      { arbitrary: chars(`${ALPHA}${DIGIT} -_.`), weight: 4 },
      { arbitrary: fc.constantFrom("~0", "~1"), weight: 2 },
      { arbitrary: fc.constantFrom("é", "😀", "\n", "\u0000", "\ud800", "%25", "#"), weight: 1 },
    ),
    0,
    5,
  ).map((token) => `/${token}`),
  0,
  4,
);

/** Characters that break, or probe, a format string. */
const FORMAT_NOISE_CHARS = [
  ..."%[]:@/?#{}",
  " ",
  "\n",
  "\r",
  "\t",
  "\u2028",
  "\u2029",
  '"',
  "'",
  "<",
  ">",
  "\\",
  "^",
  "`",
  "|",
  "=",
  "+",
  "-",
  "_",
  ".",
  "*",
  ",",
  "!",
  "$",
  "&",
  ";",
  "~",
  "é",
  "€",
  "😀",
  "\ud800",
  "\u0000",
  "\u007f",
  "\u00a0",
];

const noiseChar = fc.oneof(
  { arbitrary: chars(ALPHA + DIGIT), weight: 3 },
  { arbitrary: fc.constantFrom(...FORMAT_NOISE_CHARS), weight: 3 },
  { arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }), weight: 1 },
);
/** Random strings over letters, digits and the characters formats care about. */
const noiseString: Arb<string> = repeat(noiseChar, 0, 24);

const BROKEN_FRAGMENTS: Record<string, string[]> = {
  uri: [
    "%",
    "%4",
    "%zz",
    "%g1",
    "% 1",
    "[",
    "]",
    "[::1",
    "::1]",
    " ",
    "\n",
    "\\",
    "^",
    "{",
    "}",
    "`",
    "|",
    '"',
    "<",
    ">",
    "é",
    "#",
    "?",
    "@",
    "@@",
    ":",
    "//",
    "[v.x]",
    "[vz.x]",
    "[::g]",
    "\u0000",
    "\ud800",
  ],
  "uri-template": [
    "{",
    "}",
    "{}",
    "{{x}}",
    "{x",
    "x}",
    "{$x}",
    "{x:0}",
    "{x:01}",
    "{x:10000}",
    "{x*3}",
    "{x**}",
    "{x.y}",
    "{x,}",
    "{,x}",
    "{+}",
    "{ x}",
    "{x }",
    "{x:}",
    "{x:*}",
    "{x*:1}",
    "{%}",
    "{%4}",
    "{%zz}",
    "{x-y}",
    "{++x}",
    "%",
    "%4",
    "%zz",
    " ",
    '"',
    "'",
    "<",
    ">",
    "\\",
    "^",
    "`",
    "|",
    "\n",
    "\u0000",
  ],
  byte: ["=", "==", "===", "-", "_", " ", "!", "é", ".", "A", "AA", "AAA", "\n", "\r\n", "\u2028", "\t", "\u0000"],
  date: ["-", "0", "9", "1", "T", " ", "Z", "\u0660"],
  time: [":", "0", "9", ".", "Z", "+", "-", "+01", ":60", ".5", " ", "\u0660"],
  "date-time": ["T", "t", " ", "Z", "+", ":", "0", "9", ".", "T00:00:00Z", "\n"],
  email: ["@", ".", "..", "-", "_", "é", " ", '"', "(", "[", "\u0000"],
  uuid: ["-", "0", "g", "G", "urn:uuid:", " ", "{", "}"],
  ipv4: [".", "0", "00", "1", "25", "256", "-", " ", ":", "\u0660"],
  ipv6: [":", "::", "0", "f", "g", "00000", ".", "1.2.3.4", "01.2.3.4", "%eth0", "[", "]", " "],
  hostname: [".", "..", "-", "_", "é", " ", "a".repeat(63), "\u0000"],
  duration: ["P", "T", "W", "Y", "M", "D", "H", "S", "0", ".5", "-"],
  "json-pointer": ["~", "~2", "~~", "/", "~/", "#", "\\"],
};

type Corruption = "insert" | "replace" | "delete" | "truncate" | "double" | "strip";

function corrupt(format: string, valid: Arb<string>): Arb<string> {
  const fragments = BROKEN_FRAGMENTS[format] ?? [" "];
  const fragment = fc.oneof(
    { arbitrary: fc.constantFrom(...fragments), weight: 4 },
    { arbitrary: noiseChar, weight: 1 },
  );
  const op = fc.constantFrom<Corruption>(
    "insert",
    "insert",
    "insert",
    "replace",
    "replace",
    "delete",
    "truncate",
    "double",
    "strip",
  );
  return fc.tuple(valid, op, fc.nat(), fragment).map(([s, kind, at, piece]) => {
    const i = s.length === 0 ? 0 : at % (s.length + 1);
    switch (kind) {
      case "insert":
        return s.slice(0, i) + piece + s.slice(i);
      case "replace":
        return s.slice(0, i) + piece + s.slice(i + 1);
      case "delete":
        return s.slice(0, i) + s.slice(i + 1);
      case "truncate":
        return s.slice(0, i);
      case "double":
        return s + piece + s;
      case "strip":
        // Drop structure: the scheme's colon, padding, or a brace.
        return s.replace(/[:={}]/, "");
    }
  });
}

export interface FormatStrings {
  /** Strings of the format (by the RFC grammar, as ajv-formats reads it). */
  valid: Arb<string>;
  /** Valid strings with one corruption: mostly invalid, sometimes still valid. */
  broken: Arb<string>;
  /** Random strings over the characters the format cares about. */
  noise: Arb<string>;
}

const VALID_FORMAT_STRINGS: Record<string, Arb<string>> = {
  uri: uriValid,
  "uri-template": uriTemplateValid,
  byte: byteValid,
  date: dateValid,
  time: timeValid,
  "date-time": dateTimeValid,
  email: emailValid,
  uuid: uuidValid,
  ipv4: ipv4Valid,
  ipv6: ipv6Valid,
  hostname: hostnameValid,
  duration: durationValid,
  "json-pointer": jsonPointerValid,
};

/** Strings built to sit on the edge of a format, beside the corrupted valid ones. */
const NEARLY_VALID_FORMAT_STRINGS: Record<string, Arb<string>> = {
  uri: uriNearlyValid,
  date: dateNearlyValid,
  time: timeNearlyValid,
  "date-time": dateTimeNearlyValid,
  email: emailNearlyValid,
  // Octets with leading zeros, out of range, or missing.
  ipv4: fc.oneof(ipv4, nearIpv4),
  // Groups miscounted, IPv4 tails with leading zeros.
  ipv6: fc.oneof(nearIpv6, ipv6),
  hostname: hostnameNearlyValid,
  duration: durationNearlyValid,
};

export function formatStrings(format: string): FormatStrings {
  const valid = VALID_FORMAT_STRINGS[format];
  if (!valid) throw new Error(`no arbitrary for format ${format}`);
  const nearly = NEARLY_VALID_FORMAT_STRINGS[format];
  const broken = nearly ? fc.oneof(corrupt(format, valid), nearly) : corrupt(format, valid);
  return { valid, broken, noise: noiseString };
}

/** The smallest valid string of each format. */
const MINIMAL_FORMAT_STRING: Record<string, string> = { uri: "a:b", "uri-template": "", byte: "" };

// ---------------------------------------------------------------------------------------------
// Numbers

const EDGE_INTEGERS = [
  0,
  1,
  -1,
  2,
  100,
  2 ** 31 - 1,
  -(2 ** 31),
  2 ** 32,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  2 ** 53,
  1e21,
  -1e21,
  1e300,
];
const EDGE_NUMBERS = [0.5, -0.5, 1e-7, 0.1, 1 / 3, 1.0000000000000002, Number.MIN_VALUE, 1e-300, 123.456, -1e300];

function inRange(n: number, c: Constraints | undefined): boolean {
  if (!c) return true;
  if (c.minimum !== undefined && n < c.minimum) return false;
  if (c.maximum !== undefined && n > c.maximum) return false;
  if (c.exclusiveMinimum !== undefined && n <= c.exclusiveMinimum) return false;
  if (c.exclusiveMaximum !== undefined && n >= c.exclusiveMaximum) return false;
  return true;
}

function validNumber(integer: boolean, c: Constraints | undefined): Arb<number> {
  const min = c?.minimum ?? c?.exclusiveMinimum;
  const max = c?.maximum ?? c?.exclusiveMaximum;
  const intMin = min === undefined ? -1_000_000 : Math.ceil(min);
  const intMax = max === undefined ? 1_000_000 : Math.floor(max);
  const ints = fc.integer({ min: intMin, max: Math.max(intMin, intMax) }).filter((n) => inRange(n, c));
  const edges = EDGE_INTEGERS.filter((n) => inRange(n, c));
  const parts: fc.MaybeWeightedArbitrary<number>[] = [{ arbitrary: ints, weight: 4 }];
  if (edges.length > 0) parts.push({ arbitrary: fc.constantFrom(...edges), weight: 1 });
  if (!integer) {
    parts.push({
      arbitrary: fc
        .double({
          noNaN: true,
          noDefaultInfinity: true,
          ...(min !== undefined && { min }),
          ...(max !== undefined && { max }),
        })
        .filter((n) => Number.isFinite(n) && inRange(n, c)),
      weight: 4,
    });
    const fractions = EDGE_NUMBERS.filter((n) => inRange(n, c));
    if (fractions.length > 0) parts.push({ arbitrary: fc.constantFrom(...fractions), weight: 1 });
  }
  return fc.oneof(...parts);
}

/** A kind of wrong value for one place, with its weight among the kinds of that place. */
interface MutantGroup {
  mutants: Arb<Mutant>;
  weight: number;
}

function group(values: unknown[], mutation: string, weight = 1): MutantGroup {
  return { mutants: mutantOf(values, mutation), weight };
}

function numberMutants(integer: boolean, c: Constraints | undefined): MutantGroup[] {
  const groups: MutantGroup[] = [];
  const add = (values: unknown[], mutation: string, weight = 1) => {
    // Only values the constraints reject, so that each group tries one check.
    const kept = values.filter((v) => typeof v !== "number" || (Number.isFinite(v) && !inRange(v, c)));
    if (kept.length > 0) groups.push(group(kept, mutation, weight));
  };
  groups.push(group(wrongTypeValues(["integer", "number", ...(c?.nullable ? ["null" as const] : [])]), "wrong type"));
  if (integer) {
    const fractions = [0.5, 1.5, -2.5, 1e-7, 2 ** 52 + 0.5, 1.0000000000000002].filter((n) => inRange(n, c));
    if (fractions.length > 0) groups.push(group(fractions, "not an integer"));
  }
  if (c?.minimum !== undefined) {
    const min = c.minimum;
    // Just below, of the right kind so that only the bound rejects it; then further below.
    add(integer ? [min - 1] : [min - 1e-9, min - Number.EPSILON * Math.max(1, Math.abs(min))], "just below minimum", 2);
    add([min - 0.5, min - 1000, -1e300, ...(min === 0 ? [-Number.MIN_VALUE, -1e-300] : [])], "below minimum");
  }
  if (c?.maximum !== undefined) {
    const max = c.maximum;
    add(
      integer ? [max + 1] : [max + 1e-9, max + Number.EPSILON * 2 * Math.max(1, Math.abs(max))],
      "just above maximum",
      2,
    );
    add([max + 0.5, max + 1000, 1e300], "above maximum");
  }
  return groups;
}

// ---------------------------------------------------------------------------------------------
// The model

export class ModelArbitraries {
  readonly maxDepth: number;
  readonly mutationLevels: number;
  readonly maxArrayLength: number;
  private readonly declarations: Map<string, Declaration>;
  private readonly numberType: "integer" | "number";
  private readonly stringLiterals: string[];
  private readonly validCache = new Map<string, Arb>();
  private readonly mutantCache = new Map<string, Arb<Mutant>>();
  private readonly mutableCache = new Map<string, boolean>();

  constructor(
    readonly model: Model,
    options: ModelArbitraryOptions = {},
  ) {
    this.maxDepth = options.maxDepth ?? 5;
    this.mutationLevels = options.mutationLevels ?? 2;
    this.maxArrayLength = options.maxArrayLength ?? 3;
    this.declarations = new Map(model.declarations.map((d) => [d.name, d]));
    this.numberType = model.conventions.numberType;
    const literals = new Set<string>();
    const collect = (x: unknown): void => {
      if (Array.isArray(x)) x.forEach(collect);
      else if (isObject(x)) {
        if ((x.kind === "literal" || x.kind === "typeof") && typeof x.value === "string") literals.add(x.value);
        Object.values(x).forEach(collect);
      }
    };
    collect(model.declarations);
    this.stringLiterals = [...literals].sort();
  }

  declaration(name: string): Declaration {
    const decl = this.declarations.get(name);
    if (!decl) throw new Error(`no declaration ${name} in the ${this.model.revision} model`);
    return decl;
  }

  /** Valid instances of a declaration. */
  valid(name: string): Arb {
    return this.validRef(name, 0);
  }

  /** Mutants of valid instances of a declaration. */
  mutated(name: string): Arb<Mutant> {
    return this.mutantRef(name, 0, 0);
  }

  /** The smallest valid instance of a declaration (required properties only, first union members). */
  minimal(name: string): unknown {
    const value = this.minimalNode({ kind: "ref", name }, undefined, []);
    if (value === NONE) throw new Error(`${name} has no finite instance`);
    return value;
  }

  // -- shapes -----------------------------------------------------------------------------------

  /** The object shape of a node, if it is one (following references, intersections, Omit<>, Record<>). */
  private shapeOf(node: TypeNode, seen: string[] = []): ShapeLike | undefined {
    switch (node.kind) {
      case "ref": {
        if (seen.includes(node.name)) return undefined;
        const decl = this.declaration(node.name);
        if (decl.resolved) return decl.resolved;
        return decl.kind === "alias" ? this.shapeOf(decl.type, [...seen, node.name]) : undefined;
      }
      case "object":
        return { properties: node.properties, indexSignature: node.indexSignature };
      case "record":
        return { properties: [], indexSignature: { keyName: "key", keyType: "string", type: node.value } };
      case "omit": {
        const base = this.shapeOf(node.type, seen);
        return base && { ...base, properties: base.properties.filter((p) => !node.keys.includes(p.name)) };
      }
      case "intersection": {
        const shapes = node.members.map((m) => this.shapeOf(m, seen));
        if (shapes.some((s) => s === undefined)) return undefined;
        return mergeShapes(shapes as ShapeLike[]);
      }
      default:
        return undefined;
    }
  }

  /** For an intersection that is not all objects: the member that constrains most. */
  private narrowest(members: TypeNode[]): TypeNode {
    const informative = members.filter((m) => !(m.kind === "primitive" && (m.name === "unknown" || m.name === "any")));
    return (
      informative.find((m) => m.kind === "literal" || m.kind === "typeof") ??
      informative.find((m) => this.shapeOf(m) !== undefined) ??
      informative[0] ??
      members[0] ?? { kind: "primitive", name: "unknown" }
    );
  }

  /** What a union passes on to its members: its constraints, and any number in a scalar union. */
  private memberConstraints(node: NodeOf<"union">, c: Constraints | undefined): Constraints | undefined {
    const jsonType = unionNumberType(node.members, c?.jsonType);
    return jsonType === c?.jsonType ? c : { ...c, jsonType };
  }

  private isInteger(c: Constraints | undefined): boolean {
    return (c?.jsonType ?? this.numberType) === "integer";
  }

  // -- valid ------------------------------------------------------------------------------------

  private validRef(name: string, depth: number): Arb {
    const key = `${name}@${depth}`;
    const known = this.validCache.get(key);
    if (known) return known;
    const decl = this.declaration(name);
    // Built lazily so that mutually recursive declarations can refer to each other.
    let built: Arb | undefined;
    const arb = fc.constant(null).chain(() => {
      built ??= decl.resolved
        ? this.validShape(decl.resolved, depth)
        : this.validNode((decl as Extract<Declaration, { kind: "alias" }>).type, decl.constraints, depth);
      return built;
    });
    this.validCache.set(key, arb);
    return arb;
  }

  validNode(node: TypeNode, c: Constraints | undefined, depth: number): Arb {
    const base = this.validBare(node, c, depth);
    return c?.nullable ? fc.oneof({ arbitrary: base, weight: 4 }, { arbitrary: fc.constant(null), weight: 1 }) : base;
  }

  private validBare(node: TypeNode, c: Constraints | undefined, depth: number): Arb {
    switch (node.kind) {
      case "primitive":
        switch (node.name) {
          case "string":
            if (c?.format) return formatStrings(c.format).valid;
            return fc.oneof(
              { arbitrary: fc.string({ maxLength: 12 }), weight: 4 },
              { arbitrary: fc.string({ unit: "binary", maxLength: 6 }), weight: 1 },
              { arbitrary: fc.constantFrom("", "__proto__", "null", "text", "a\nb"), weight: 1 },
            );
          case "number":
            return validNumber(this.isInteger(c), c);
          case "boolean":
            return fc.boolean();
          case "null":
            return fc.constant(null);
          case "unknown":
          case "any":
            return depth >= this.maxDepth ? fc.constant({}) : fc.jsonValue({ maxDepth: 2 });
          case "object":
            return depth >= this.maxDepth
              ? fc.constant({})
              : fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
          case "undefined":
          case "never":
            throw new Error(`no valid value of ${node.name}`);
        }
        break;
      case "literal":
      case "typeof":
        return fc.constant(node.value);
      case "ref":
        return this.validRef(node.name, depth);
      case "array": {
        if (depth >= this.maxDepth) return fc.constant(this.minimalOrThrow(node, c));
        const items = this.validNode(node.items, undefined, depth + 1);
        const minLength = c?.minItems ?? 0;
        const maxLength = Math.max(minLength, Math.min(c?.maxItems ?? Infinity, this.maxArrayLength));
        const arrays = fc.array(items, { minLength, maxLength });
        if (c?.maxItems === undefined) return arrays;
        // Sometimes exactly at the limit.
        return fc.oneof(
          { arbitrary: arrays, weight: 4 },
          { arbitrary: fc.array(items, { minLength: c.maxItems, maxLength: c.maxItems }), weight: 1 },
        );
      }
      case "union":
        // JSON Schema keywords apply per type, so the union's constraints go to every member.
        return fc.oneof(
          ...node.members
            .filter((m) => !isUndefinedType(m))
            .map((m) => this.validNode(m, this.memberConstraints(node, c), depth)),
        );
      case "intersection": {
        const shape = this.shapeOf(node);
        if (shape) return this.validShape(shape, depth);
        return this.validNode(this.narrowest(node.members), c, depth);
      }
      case "object":
      case "record":
      case "omit": {
        const shape = this.shapeOf(node);
        if (!shape) throw new Error(`no shape for ${node.kind}`);
        return this.validShape(shape, depth);
      }
    }
  }

  private validShape(shape: ShapeLike, depth: number): Arb<Record<string, unknown>> {
    if (depth >= this.maxDepth) return fc.constant(this.minimalShapeOrThrow(shape));
    const properties = shape.properties.filter((p) => !isUndefinedType(p.type));
    const record: Record<string, Arb> = {};
    for (const p of properties) record[p.name] = this.validNode(p.type, p.constraints, depth + 1);
    const base = fc.record(record, {
      requiredKeys: properties.filter((p) => !p.optional).map((p) => p.name),
      noNullPrototype: true,
    }) as Arb<Record<string, unknown>>;
    const index = shape.indexSignature;
    if (!index) return base;
    const declared = new Set(shape.properties.map((p) => p.name));
    const extra = fc.array(
      fc.tuple(
        extraKey.filter((k) => !declared.has(k)),
        this.validNode(index.type, index.constraints, depth + 1),
      ),
      { maxLength: 2 },
    );
    return fc
      .tuple(base, extra)
      .map(([object, entries]) => entries.reduce((o, [k, v]) => withOwnProperty(o, k, v), object));
  }

  // -- deep nesting -----------------------------------------------------------------------------

  /**
   * The declarations that contain themselves through at least one object or array (JSONValue,
   * JSONObject, JSONArray), each with the steps of its shortest such cycle.
   */
  recursive(): Map<string, Step[]> {
    const out = new Map<string, Step[]>();
    for (const d of this.model.declarations) {
      const path = this.cycle(d.name);
      if (path) out.set(d.name, path);
    }
    return out;
  }

  /** A valid instance of a recursive declaration nested `levels` times along its cycle. */
  nested(name: string, levels: number): unknown {
    const path = this.cycle(name);
    if (!path) throw new Error(`${name} is not recursive`);
    let value = this.minimal(name);
    for (let i = 0; i < levels; i++) value = this.wrap(path, value);
    return value;
  }

  /** Breadth-first: the shortest path from a declaration's body back to a reference to it. */
  private cycle(name: string): Step[] | undefined {
    const start = this.bodyOf(name);
    const queue: { node: Start; path: Step[] }[] = [{ node: start, path: [] }];
    const seen = new Set<string>();
    while (queue.length > 0) {
      const { node, path } = queue.shift() as { node: Start; path: Step[] };
      for (const step of this.steps(node)) {
        const next = [...path, step];
        if (step.target.kind === "ref" && step.target.name === name && next.some((s) => s.container)) return next;
        const key = JSON.stringify(step.target);
        if (seen.has(key) || next.length > 12) continue;
        seen.add(key);
        queue.push({ node: step.target, path: next });
      }
    }
    return undefined;
  }

  private bodyOf(name: string): Start {
    const decl = this.declaration(name);
    return decl.resolved
      ? { kind: "shape", shape: decl.resolved }
      : (decl as Extract<Declaration, { kind: "alias" }>).type;
  }

  private steps(node: Start): Step[] {
    if (node.kind === "shape") {
      const { shape } = node;
      const steps: Step[] = shape.properties
        .filter((p) => !isUndefinedType(p.type))
        .map((p) => ({ kind: "property", shape, key: p.name, target: p.type, container: true }));
      if (shape.indexSignature)
        steps.push({ kind: "property", shape, key: "nested", target: shape.indexSignature.type, container: true });
      return steps;
    }
    switch (node.kind) {
      case "ref":
        return [{ kind: "into", target: this.bodyOf(node.name), container: false }];
      case "union":
        return node.members.map((m) => ({ kind: "into", target: m, container: false }));
      case "array":
        return [{ kind: "item", target: node.items, container: true }];
      default: {
        const shape = this.shapeOf(node);
        return shape ? this.steps({ kind: "shape", shape }) : [];
      }
    }
  }

  private wrap(path: Step[], inner: unknown): unknown {
    const [step, ...rest] = path;
    if (!step) return inner;
    switch (step.kind) {
      case "into":
        return this.wrap(rest, inner);
      case "item":
        return [this.wrap(rest, inner)];
      case "property": {
        // A computed key defines an own property, whatever its name.
        return { ...this.minimalShapeOrThrow(step.shape), [step.key]: this.wrap(rest, inner) };
      }
    }
  }

  // -- minimal ----------------------------------------------------------------------------------

  private minimalOrThrow(node: TypeNode, c: Constraints | undefined): unknown {
    const value = this.minimalNode(node, c, []);
    if (value === NONE) throw new Error(`no finite instance of ${JSON.stringify(node)}`);
    return value;
  }

  private minimalShapeOrThrow(shape: ShapeLike): Record<string, unknown> {
    const value = this.minimalShape(shape, []);
    if (value === NONE) throw new Error("no finite instance of a shape");
    return value;
  }

  private minimalNode(node: TypeNode, c: Constraints | undefined, stack: string[]): unknown {
    switch (node.kind) {
      case "primitive":
        switch (node.name) {
          case "string":
            return c?.format ? (MINIMAL_FORMAT_STRING[c.format] ?? "") : "";
          case "number": {
            const min = c?.minimum ?? (c?.exclusiveMinimum !== undefined ? c.exclusiveMinimum + 1 : undefined);
            return min === undefined || min <= 0 ? (inRange(0, c) ? 0 : Math.ceil(min ?? 0)) : Math.ceil(min);
          }
          case "boolean":
            return false;
          case "null":
            return null;
          case "unknown":
          case "any":
          case "object":
            return {};
          case "undefined":
          case "never":
            return NONE;
        }
        break;
      case "literal":
      case "typeof":
        return node.value;
      case "ref": {
        if (stack.includes(node.name)) return NONE;
        const decl = this.declaration(node.name);
        const inner = [...stack, node.name];
        return decl.resolved
          ? this.minimalShape(decl.resolved, inner)
          : this.minimalNode((decl as Extract<Declaration, { kind: "alias" }>).type, decl.constraints, inner);
      }
      case "array": {
        const count = c?.minItems ?? 0;
        if (count === 0) return [];
        const item = this.minimalNode(node.items, undefined, stack);
        return item === NONE ? NONE : Array.from({ length: count }, () => item);
      }
      case "union":
        for (const m of node.members) {
          const value = this.minimalNode(m, c, stack);
          if (value !== NONE) return value;
        }
        return NONE;
      case "intersection": {
        const shape = this.shapeOf(node);
        return shape ? this.minimalShape(shape, stack) : this.minimalNode(this.narrowest(node.members), c, stack);
      }
      case "object":
      case "record":
      case "omit": {
        const shape = this.shapeOf(node);
        return shape ? this.minimalShape(shape, stack) : NONE;
      }
    }
  }

  private minimalShape(shape: ShapeLike, stack: string[]): Record<string, unknown> | typeof NONE {
    const out: Record<string, unknown> = {};
    for (const p of shape.properties) {
      if (p.optional) continue;
      const value = this.minimalNode(p.type, p.constraints, stack);
      if (value === NONE) return NONE;
      out[p.name] = value;
    }
    return out;
  }

  // -- mutants ----------------------------------------------------------------------------------

  /** Whether a node has invalid values at all (`unknown` has none). */
  private mutable(node: TypeNode, seen: string[] = []): boolean {
    switch (node.kind) {
      case "primitive":
        return node.name !== "unknown" && node.name !== "any";
      case "ref": {
        if (seen.includes(node.name)) return true;
        const known = this.mutableCache.get(node.name);
        if (known !== undefined) return known;
        const decl = this.declaration(node.name);
        const result = decl.resolved
          ? true
          : this.mutable((decl as Extract<Declaration, { kind: "alias" }>).type, [...seen, node.name]);
        this.mutableCache.set(node.name, result);
        return result;
      }
      case "union":
        return node.members.every((m) => this.mutable(m, seen));
      case "intersection":
        return node.members.some((m) => this.mutable(m, seen));
      default:
        return true;
    }
  }

  private mutantRef(name: string, depth: number, level: number): Arb<Mutant> {
    const key = `${name}@${depth}@${level}`;
    const known = this.mutantCache.get(key);
    if (known) return known;
    const decl = this.declaration(name);
    let built: Arb<Mutant> | undefined;
    const arb = fc.constant(null).chain(() => {
      built ??= decl.resolved
        ? this.mutantShape(decl.resolved, depth, level)
        : this.mutantNode((decl as Extract<Declaration, { kind: "alias" }>).type, decl.constraints, depth, level);
      return built;
    });
    this.mutantCache.set(key, arb);
    return arb;
  }

  /** The kinds of wrong values for a leaf (a primitive or a literal), or undefined for other nodes. */
  private leafGroups(node: TypeNode, c: Constraints | undefined): MutantGroup[] | undefined {
    const nullable = c?.nullable ? (["null"] as const) : [];
    switch (node.kind) {
      case "primitive":
        switch (node.name) {
          case "string": {
            const groups = [group(wrongTypeValues(["string", ...nullable]), "wrong type")];
            if (c?.format) {
              const strings = formatStrings(c.format);
              groups.push(
                { mutants: strings.broken.map((value) => ({ value, mutation: `bad ${c.format}` })), weight: 4 },
                { mutants: strings.noise.map((value) => ({ value, mutation: `noise for ${c.format}` })), weight: 1 },
              );
            }
            return groups;
          }
          case "number":
            return numberMutants(this.isInteger(c), c);
          case "boolean":
          case "null":
          case "object":
            return [group(wrongTypeValues([node.name, ...nullable]), "wrong type")];
          case "unknown":
          case "any":
            return [];
          case "undefined":
          case "never":
            return [group(wrongTypeValues([]), "a value where none is allowed")];
        }
        break;
      case "literal":
      case "typeof":
        return [
          group(wrongLiterals(node.value, this.stringLiterals), `wrong literal for ${JSON.stringify(node.value)}`, 3),
          group(wrongTypeValues([literalKind(node.value)]), "wrong type"),
        ];
      default:
        return undefined;
    }
  }

  mutantNode(node: TypeNode, c: Constraints | undefined, depth: number, level: number): Arb<Mutant> {
    const leaf = this.leafGroups(node, c);
    if (leaf) {
      if (leaf.length === 0)
        return this.validNode(node, c, depth).map((value) => ({ value, mutation: "any value (unknown)" }));
      return fc.oneof(...leaf.map((g) => ({ arbitrary: g.mutants, weight: g.weight })));
    }
    switch (node.kind) {
      case "ref":
        return this.mutantRef(node.name, depth, level);
      case "array": {
        const wrong = mutantOf(wrongTypeValues(["array"]), "wrong type");
        const parts: fc.MaybeWeightedArbitrary<Mutant>[] = [{ arbitrary: wrong, weight: 1 }];
        if (depth < this.maxDepth) {
          const items = this.validNode(node.items, undefined, depth + 1);
          if (level < this.mutationLevels && this.mutable(node.items)) {
            const element = this.mutantNode(node.items, undefined, depth + 1, level + 1);
            parts.push({
              arbitrary: fc
                .tuple(fc.array(items, { maxLength: this.maxArrayLength }), element, fc.nat())
                .map(([array, m, at]) => {
                  const i = at % (array.length + 1);
                  return {
                    value: [...array.slice(0, i), m.value, ...array.slice(i)],
                    mutation: under(String(i), m.mutation),
                  };
                }),
              weight: 4,
            });
          }
          if (c?.maxItems !== undefined) {
            const max = c.maxItems;
            parts.push({
              arbitrary: fc
                .array(items, { minLength: max + 1, maxLength: max + 2 })
                .map((value) => ({ value, mutation: `more than ${max} items` })),
              weight: 1,
            });
          }
        }
        return fc.oneof(...parts);
      }
      case "union": {
        const members = node.members.filter((m) => this.mutable(m));
        const wrong = mutantOf(wrongTypeValues(unionKinds(node)), "wrong type");
        if (members.length === 0) return wrong;
        return fc.oneof(
          { arbitrary: wrong, weight: 1 },
          {
            arbitrary: fc.oneof(
              ...members.map((m) => this.mutantNode(m, this.memberConstraints(node, c), depth, level)),
            ),
            weight: 4,
          },
        );
      }
      case "intersection": {
        const shape = this.shapeOf(node);
        if (shape) return this.mutantShape(shape, depth, level);
        return this.mutantNode(this.narrowest(node.members), c, depth, level);
      }
      case "object":
      case "record":
      case "omit": {
        const shape = this.shapeOf(node);
        if (!shape) throw new Error(`no shape for ${node.kind}`);
        return this.mutantShape(shape, depth, level);
      }
      default:
        throw new Error(`unexpected ${node.kind}`);
    }
  }

  /**
   * Every place a declaration's instances can be mutated, at the root or up to `mutationLevels`
   * objects or arrays down, each with the mutants of that one place: a value with a literal,
   * a format, a range or an item limit (one site per kind of wrong value), a required property,
   * an object (extra fields, wrong type). The declaration's own structure is expanded; a
   * reference to another declaration is one site with random mutants of it, as that one's
   * sites are tried on its own. Sampling each site tries every constraint of every declaration.
   */
  mutationSites(name: string): Site[] {
    const decl = this.declaration(name);
    return decl.resolved
      ? this.shapeSites(decl.resolved, 0, 0)
      : this.sitesOf((decl as Extract<Declaration, { kind: "alias" }>).type, decl.constraints, 0, 0);
  }

  private sitesOf(node: TypeNode, c: Constraints | undefined, depth: number, level: number): Site[] {
    const leaf = this.leafGroups(node, c);
    if (leaf) return leaf.map((g) => ({ path: "", mutants: g.mutants }));
    switch (node.kind) {
      case "ref":
        return this.mutable(node) ? [{ path: "", mutants: this.mutantRef(node.name, depth, level) }] : [];
      case "array": {
        const sites: Site[] = [{ path: "", mutants: mutantOf(wrongTypeValues(["array"]), "wrong type") }];
        if (depth >= this.maxDepth) return sites;
        const items = this.validNode(node.items, undefined, depth + 1);
        if (c?.maxItems !== undefined) {
          const max = c.maxItems;
          sites.push({
            path: "",
            mutants: fc
              .array(items, { minLength: max + 1, maxLength: max + 1 })
              .map((value) => ({ value, mutation: `more than ${max} items` })),
          });
        }
        if (level < this.mutationLevels)
          for (const site of this.sitesOf(node.items, undefined, depth + 1, level + 1)) {
            sites.push({
              path: `/*${site.path}`,
              mutants: fc
                .tuple(fc.array(items, { maxLength: this.maxArrayLength }), site.mutants, fc.nat())
                .map(([array, m, at]) => {
                  const i = at % (array.length + 1);
                  return {
                    value: [...array.slice(0, i), m.value, ...array.slice(i)],
                    mutation: under(String(i), m.mutation),
                  };
                }),
            });
          }
        return sites;
      }
      case "union": {
        if (!this.mutable(node)) return [];
        const wrong = mutantOf(wrongTypeValues(unionKinds(node)), "wrong type");
        const inner = this.memberConstraints(node, c);
        return [{ path: "", mutants: wrong }, ...node.members.flatMap((m) => this.sitesOf(m, inner, depth, level))];
      }
      case "intersection": {
        const shape = this.shapeOf(node);
        return shape
          ? this.shapeSites(shape, depth, level)
          : this.sitesOf(this.narrowest(node.members), c, depth, level);
      }
      case "object":
      case "record":
      case "omit": {
        const shape = this.shapeOf(node);
        if (!shape) throw new Error(`no shape for ${node.kind}`);
        return this.shapeSites(shape, depth, level);
      }
      default:
        throw new Error(`unexpected ${node.kind}`);
    }
  }

  private shapeSites(shape: ShapeLike, depth: number, level: number): Site[] {
    const valid = this.validShape(shape, depth);
    const extraValue = fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.constantFrom(...wrongTypeValues([])));
    const sites: Site[] = [
      { path: "", mutants: mutantOf(wrongTypeValues(["object"]), "wrong type") },
      {
        path: "",
        mutants: fc.tuple(valid, extraKey, extraValue).map(([object, key, value]) => ({
          value: withOwnProperty(object, key, value),
          mutation: `extra field ${JSON.stringify(key)}`,
        })),
      },
    ];
    for (const p of shape.properties.filter((q) => !q.optional)) {
      sites.push({
        path: `/${p.name}`,
        mutants: valid.map((object) => ({
          value: without(object, p.name),
          mutation: `required ${JSON.stringify(p.name)} dropped`,
        })),
      });
    }
    if (depth >= this.maxDepth || level >= this.mutationLevels) return sites;
    for (const p of shape.properties.filter((q) => !isUndefinedType(q.type))) {
      for (const site of this.sitesOf(p.type, p.constraints, depth + 1, level + 1)) {
        sites.push({
          path: `/${p.name}${site.path}`,
          mutants: fc.tuple(valid, site.mutants).map(([object, m]) => ({
            value: withOwnProperty(object, p.name, m.value),
            mutation: under(p.name, m.mutation),
          })),
        });
      }
    }
    const index = shape.indexSignature;
    if (index) {
      const declared = new Set(shape.properties.map((p) => p.name));
      for (const site of this.sitesOf(index.type, index.constraints, depth + 1, level + 1)) {
        sites.push({
          path: `/[${index.keyName}]${site.path}`,
          mutants: fc
            .tuple(
              valid,
              extraKey.filter((k) => !declared.has(k)),
              site.mutants,
            )
            .map(([object, key, m]) => ({
              value: withOwnProperty(object, key, m.value),
              mutation: under(key, m.mutation),
            })),
        });
      }
    }
    return sites;
  }

  private mutantShape(shape: ShapeLike, depth: number, level: number): Arb<Mutant> {
    const parts: fc.MaybeWeightedArbitrary<Mutant>[] = [
      { arbitrary: mutantOf(wrongTypeValues(["object"]), "wrong type"), weight: 1 },
    ];
    const valid = this.validShape(shape, depth);
    const required = shape.properties.filter((p) => !p.optional);
    if (required.length > 0) {
      parts.push({
        arbitrary: fc.tuple(valid, fc.constantFrom(...required.map((p) => p.name))).map(([object, name]) => ({
          value: without(object, name),
          mutation: `required ${JSON.stringify(name)} dropped`,
        })),
        weight: 2,
      });
    }
    const extraValue = fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.constantFrom(...wrongTypeValues([])));
    parts.push({
      arbitrary: fc.tuple(valid, extraKey, extraValue).map(([object, key, value]) => ({
        value: withOwnProperty(object, key, value),
        mutation: `extra field ${JSON.stringify(key)}`,
      })),
      weight: 2,
    });
    if (depth < this.maxDepth && level < this.mutationLevels) {
      const properties = shape.properties.filter((p) => !isUndefinedType(p.type) && this.mutable(p.type));
      if (properties.length > 0) {
        const one = fc.oneof(
          ...properties.map((p) =>
            fc.tuple(valid, this.mutantNode(p.type, p.constraints, depth + 1, level + 1)).map(([object, m]) => ({
              value: withOwnProperty(object, p.name, m.value),
              mutation: under(p.name, m.mutation),
            })),
          ),
        );
        parts.push({ arbitrary: one, weight: 6 });
      }
      const index = shape.indexSignature;
      if (index && this.mutable(index.type)) {
        const declared = new Set(shape.properties.map((p) => p.name));
        parts.push({
          arbitrary: fc
            .tuple(
              valid,
              extraKey.filter((k) => !declared.has(k)),
              this.mutantNode(index.type, index.constraints, depth + 1, level + 1),
            )
            .map(([object, key, m]) => ({
              value: withOwnProperty(object, key, m.value),
              mutation: under(key, m.mutation),
            })),
          weight: 2,
        });
      }
    }
    return fc.oneof(...parts);
  }
}

const NONE: unique symbol = Symbol("none");

/** One place where instances of a declaration can be mutated, and the mutants of that place. */
export interface Site {
  /** JSON Pointer-like path of the place (`*` for any array item, `[key]` for an index signature). */
  path: string;
  mutants: Arb<Mutant>;
}

/** A node or a resolved object shape, where a recursion path starts or passes. */
export type Start = TypeNode | { kind: "shape"; shape: ShapeLike };

/** One step of a recursion path: into a reference or union member, an array item, or a property. */
export type Step =
  | { kind: "into"; target: Start; container: false }
  | { kind: "item"; target: Start; container: true }
  | { kind: "property"; shape: ShapeLike; key: string; target: Start; container: true };

const extraKey = fc.oneof(
  { arbitrary: fc.constantFrom(...AWKWARD_KEYS), weight: 2 },
  { arbitrary: fc.string({ maxLength: 8 }), weight: 1 },
);

/** A mutation label one property or item down: `/key/inner: what`. */
function under(key: string, mutation: string): string {
  const segment = `/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
  return mutation.startsWith("/") ? segment + mutation : `${segment}: ${mutation}`;
}

function isUndefinedType(node: TypeNode): boolean {
  return node.kind === "primitive" && (node.name === "undefined" || node.name === "never");
}

function literalKind(value: LiteralValue): JsonKind {
  if (typeof value === "string") return "string";
  if (typeof value === "boolean") return "boolean";
  return Number.isInteger(value) ? "integer" : "number";
}

/** The JSON kinds some member of a union may take (so "wrong type" values avoid them). */
function unionKinds(node: TypeNode): JsonKind[] {
  const kinds = new Set<JsonKind>();
  const visit = (n: TypeNode): void => {
    switch (n.kind) {
      case "primitive":
        if (n.name === "number") kinds.add("integer").add("number");
        else if (n.name === "string" || n.name === "boolean" || n.name === "null" || n.name === "object")
          kinds.add(n.name);
        break;
      case "literal":
      case "typeof":
        kinds.add(literalKind(n.value));
        break;
      case "array":
        kinds.add("array");
        break;
      case "union":
        n.members.forEach(visit);
        break;
      default:
        kinds.add("object");
    }
  };
  visit(node);
  return [...kinds];
}

function wrongLiterals(value: LiteralValue, pool: string[]): unknown[] {
  if (typeof value === "string") {
    const variants = [`${value}x`, value.toUpperCase(), ` ${value}`, value.slice(0, -1), "", `${value}\u0000`];
    const others = pool.filter((v) => v !== value).slice(0, 40);
    return [...new Set([...variants, ...others])].filter((v) => v !== value);
  }
  if (typeof value === "number") return [value + 1, value - 1, value + 0.5, -value - 1, String(value)];
  return [!value, String(value), value ? 1 : 0];
}

/** Properties of several shapes as one (an intersection): a property in several gets an intersection type. */
function mergeShapes(shapes: ShapeLike[]): ShapeLike {
  const byName = new Map<string, Property>();
  let indexSignature: IndexSignature | undefined;
  for (const shape of shapes) {
    for (const p of shape.properties) {
      const known = byName.get(p.name);
      byName.set(
        p.name,
        known
          ? {
              name: p.name,
              optional: known.optional && p.optional,
              type: { kind: "intersection", members: [known.type, p.type] },
              constraints: { ...known.constraints, ...p.constraints },
            }
          : p,
      );
    }
    if (shape.indexSignature) {
      indexSignature = indexSignature
        ? {
            ...indexSignature,
            type: { kind: "intersection", members: [indexSignature.type, shape.indexSignature.type] },
          }
        : shape.indexSignature;
    }
  }
  return { properties: [...byName.values()], indexSignature };
}
