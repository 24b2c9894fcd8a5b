// runtime/request-id-map.ts, the table a Peer keeps its pending and in-flight requests in, against
// a Map (the structure it replaces) as the oracle: the same answers after every operation.
import { describe, expect, it } from "vitest";
import type { RequestId } from "../runtime/jsonrpc.js";
import { RequestIdMap } from "../runtime/request-id-map.js";

/** A small deterministic PRNG (mulberry32), so that a failure replays. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

function expectSame(table: RequestIdMap<string>, oracle: Map<RequestId, string>, probes: readonly RequestId[]) {
  expect(table.size).toBe(oracle.size);
  expect(table.values()).toEqual([...oracle.values()]);
  for (const id of probes) {
    expect(table.get(id)).toBe(oracle.get(id));
    expect(table.has(id)).toBe(oracle.has(id));
  }
}

describe("RequestIdMap", () => {
  it("keeps the id 1 and the id '1' apart, and 0 and -0 together, as a Map does", () => {
    const table = new RequestIdMap<string>();
    table.set(1, "number");
    table.set("1", "string");
    table.set(0, "zero");
    table.set(-0, "minus zero");
    expect([table.get(1), table.get("1"), table.get(0), table.size]).toEqual(["number", "string", "minus zero", 3]);
    expect(table.delete("1")).toBe(true);
    expect(table.delete("1")).toBe(false);
    expect([table.get(1), table.get("1"), table.size]).toEqual(["number", undefined, 2]);
  });

  it("answers as a Map through random traffic: counting ids, strings, negatives, fractions, bursts", () => {
    const next = random(16);
    const table = new RequestIdMap<string>();
    const oracle = new Map<RequestId, string>();
    const made: RequestId[] = ["__proto__", "constructor", "", -1, 1.5, 2 ** 40, 2 ** 32 + 7];
    let counter = 1;
    const anId = (): RequestId => {
      const pick = next();
      if (pick < 0.5) return counter++; // a Peer's own ids
      if (pick < 0.7) return made[Math.floor(next() * made.length)]!;
      if (pick < 0.85) return `req-${Math.floor(next() * 500)}`;
      return Math.floor(next() * 2000) - 1000 + (next() < 0.2 ? 0.25 : 0);
    };
    for (let step = 0; step < 20_000; step++) {
      // In bursts: the table grows to hundreds of entries, then drains.
      const adding = Math.floor(step / 2000) % 2 === 0 ? next() < 0.7 : next() < 0.3;
      if (adding || oracle.size === 0) {
        const id = anId();
        made.push(id);
        table.set(id, `v${step}`);
        oracle.set(id, `v${step}`);
      } else {
        const keys = [...oracle.keys()];
        const id = next() < 0.9 ? keys[Math.floor(next() * keys.length)]! : anId();
        expect(table.delete(id)).toBe(oracle.delete(id));
      }
      if (step % 500 === 0) expectSame(table, oracle, made.slice(-200));
    }
    expectSame(table, oracle, made);
    table.clear();
    oracle.clear();
    expectSame(table, oracle, made);
    table.set("again", "after clear");
    expect([table.get("again"), table.size]).toEqual(["after clear", 1]);
  });

  it("grows through a burst of thousands in flight and shrinks back as they end", () => {
    const next = random(32);
    const table = new RequestIdMap<string>();
    const oracle = new Map<RequestId, string>();
    // Strings, small numbers, and numbers past 32 bits (which once all hashed to one slot).
    const ids = Array.from({ length: 5000 }, (_, i) => (i % 3 === 0 ? `s${i}` : i % 3 === 1 ? i : i * 2 ** 32));
    for (const id of ids) {
      table.set(id, `v${id}`);
      oracle.set(id, `v${id}`);
    }
    expectSame(table, oracle, ids);
    for (const id of [...ids].sort(() => next() - 0.5).slice(0, 4990)) {
      expect(table.delete(id)).toBe(true);
      oracle.delete(id);
    }
    expectSame(table, oracle, ids);
  });

  it("gives its values in the order their keys were added, not the ids' order", () => {
    const table = new RequestIdMap<string>();
    for (const id of [30, "b", 2, "a", 1000, -4]) table.set(id, String(id));
    table.set(2, "2 again"); // a new value keeps its key's place
    expect(table.values()).toEqual(["30", "b", "2 again", "a", "1000", "-4"]);
  });
});
