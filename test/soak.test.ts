// The soak's own checks (scripts/soak/): a short run over Streamable HTTP passes and prints no
// warning, and each check fails the run when its leak is put in on purpose: fetch given one
// shared signal (what issue 19 found), list requests no server answers, a call that never
// settles, a heap that grows, one timer left running, listeners left on the caller's signal.
import { afterEach, describe, expect, it } from "vitest";
import { Detector } from "../scripts/soak/detector.js";
import { runScenario, type RunOptions, type ScenarioReport } from "../scripts/soak/run.js";
import { SCENARIOS, type Scenario } from "../scripts/soak/scenarios.js";
import type { SoakClient } from "../scripts/soak/workload.js";

const scenario = (name: string) => SCENARIOS.find((s) => s.name === name) as Scenario;
const sequential = (calls: number): RunOptions => ({ mix: { calls, lists: 0 }, concurrency: [1], stallMs: 30_000 });
const listing: RunOptions = { ...sequential(200), mix: { calls: 200, lists: 20 } };

let detector: Detector | undefined;
afterEach(() => detector?.stop());

async function soak(run: Scenario, options: RunOptions): Promise<ScenarioReport> {
  detector = new Detector().start();
  return runScenario(run, detector, options);
}

/** The in-memory scenario with its client changed by `wrap`; `cleanup` runs when it closes. */
function leaky(wrap: (client: SoakClient) => SoakClient, cleanup: () => void = () => {}): Scenario {
  const base = scenario("in-memory");
  return {
    name: "leaky",
    setup: "in-memory, leaking on purpose",
    async open(options) {
      const opened = await base.open(options);
      return {
        ...opened,
        client: wrap(opened.client),
        close: async () => {
          cleanup();
          await opened.close();
        },
      };
    },
  };
}

describe("the soak", () => {
  it("3,000 sequential calls over Streamable HTTP print no warning and leave nothing behind", async () => {
    const report = await soak(scenario("streamable-http-2025"), sequential(3000));
    expect(report.problems).toEqual([]);
    expect(detector?.warnings).toEqual([]);
    expect(report.phases[0]?.counts).toMatchObject({ calls: 3000, cancelled: 30, progressed: 270, failed: 0 });
    expect(report.end).toEqual(report.start);
  });

  it("fails when fetch is given one long-lived signal for every request", async () => {
    const shared = new AbortController();
    const sharedSignalFetch: typeof fetch = (input, init) => fetch(input, { ...init, signal: shared.signal });
    const report = await soak(scenario("streamable-http-2025"), { ...sequential(3000), fetch: sharedSignalFetch });
    expect(report.problems.join("\n")).toMatch(/AbortSignal given to fetch again and again held \d+ abort listeners/);
  });

  it("counts the tools/list the servers answer, and fails when they answer fewer than were asked for", async () => {
    const counted = await soak(scenario("in-memory"), listing);
    expect(counted.problems).toEqual([]);
    expect(counted.phases.map((phase) => [phase.counts.lists, phase.listed])).toEqual([[20, 20]]);
    detector?.stop();
    // A list request answered without reaching a server, as a host whose listings never happen would.
    const run = leaky((client) => ({ ...client, list: async () => {} }));
    const report = await soak(run, listing);
    expect(report.problems.join("\n")).toMatch(
      /20 lists, 0 tools\/list answered by the servers, fewer than were asked for/,
    );
  });

  it("fails on a request that never settles", async () => {
    // Cancellation that never reaches the call: it runs for good.
    const run = leaky((client) => ({
      ...client,
      hang: (options) => client.hang({ ...options, signal: new AbortController().signal }),
    }));
    const report = await soak(run, { ...sequential(300), stallMs: 500 });
    expect(report.problems.join("\n")).toMatch(/had not settled/);
  });

  it("fails on a heap that grows more than 5 MB", async () => {
    const kept: number[][] = [];
    const run = leaky((client) => ({
      ...client,
      echo: (text, options) => {
        kept.push(new Array<number>(256).fill(kept.length));
        return client.echo(text, options);
      },
    }));
    const report = await soak(run, sequential(6000));
    expect(report.problems.join("\n")).toMatch(/heap after GC grew/);
  });

  it("fails on a single timer left running", async () => {
    // One timer, started after the 10% mark: no resource may grow, not even by one.
    let lists = 0;
    let timer: ReturnType<typeof setInterval> | undefined;
    const run = leaky(
      (client) => ({
        ...client,
        list: async (options) => {
          if (++lists === 50) timer = setInterval(() => {}, 60_000);
          await client.list(options);
        },
      }),
      () => clearInterval(timer),
    );
    const report = await soak(run, { ...listing, mix: { calls: 1000, lists: 100 } });
    expect(report.problems).toEqual(["1 in flight: active Timeout grew from 0 to 1"]);
  });

  it("fails on listeners left on the caller's long-lived signal", async () => {
    const run = leaky((client) => ({
      ...client,
      echo: (text, options) => {
        options.signal.addEventListener("abort", () => {});
        return client.echo(text, options);
      },
    }));
    const report = await soak(run, sequential(300));
    expect(report.problems.join("\n")).toMatch(/listeners on a long-lived AbortSignal grew/);
  });
});
