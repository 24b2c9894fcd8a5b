// The SSE parser both HTTP client transports read with (runtime/sse.ts): events survive any
// chunking and every line ending, large events are read whole, and an over-long event is dropped
// and reported instead of held in memory.
import { describe, expect, it } from "vitest";
import { formatSseEvent, SseParser, type SseEvent } from "../runtime/http/sse.js";

function parse(chunks: string[], options?: ConstructorParameters<typeof SseParser>[1]) {
  const events: SseEvent[] = [];
  const parser = new SseParser((event) => events.push(event), options);
  for (const chunk of chunks) parser.push(chunk);
  return { events, parser };
}

const stream =
  "\ufeff: a comment\r\n" +
  formatSseEvent({ id: "s_0", retryMs: 250, data: "" }) +
  formatSseEvent({ event: "message", id: "s_1", data: '{"a":1}' }) +
  "data: two\r\ndata: lines\r\r" +
  "event: endpoint\rdata: /message?x=1\n\n" +
  formatSseEvent({ data: "last" });

const expected = [
  { event: "message", data: "", id: "s_0" },
  { event: "message", data: '{"a":1}', id: "s_1" },
  { event: "message", data: "two\nlines", id: undefined },
  { event: "endpoint", data: "/message?x=1", id: undefined },
  { event: "message", data: "last", id: undefined },
];

describe("SseParser", () => {
  it("reads the same events however the stream is cut, with \\n, \\r\\n and \\r line ends", () => {
    expect(parse([stream]).events).toEqual(expected);
    for (let cut = 0; cut <= stream.length; cut++) {
      expect(parse([stream.slice(0, cut), stream.slice(cut)]).events, `cut at ${cut}`).toEqual(expected);
    }
    const { events, parser } = parse([...stream]);
    expect(events).toEqual(expected);
    expect([parser.lastEventId, parser.retryMs]).toEqual(["s_1", 250]);
  });

  it("takes a \\r at the end of one chunk and a \\n at the start of the next as one line end", () => {
    expect(parse(["data: a\r", "\n", "\r", "\n"]).events).toEqual([{ event: "message", data: "a", id: undefined }]);
  });

  it("reads a 16 MB event sent in 64 KB chunks whole", () => {
    const data = "x".repeat(16 * 1024 * 1024);
    const text = formatSseEvent({ data });
    const chunks: string[] = [];
    for (let i = 0; i < text.length; i += 65536) chunks.push(text.slice(i, i + 65536));
    const { events } = parse(chunks);
    expect(events.map((e) => e.data.length)).toEqual([data.length]);
  });

  it("drops an event over maxEventLength, says so once, and reads the next one", () => {
    const errors: Error[] = [];
    const long = formatSseEvent({ data: "y".repeat(5000) });
    const endless = "data: " + "z".repeat(3000);
    const chunks = [...long.match(/[^]{1,700}/g)!, formatSseEvent({ data: "short" }), endless, endless, "\n\n"];
    const { events } = parse([...chunks, formatSseEvent({ data: "after" })], {
      maxEventLength: 1000,
      onError: (error) => errors.push(error),
    });
    expect(events.map((e) => e.data)).toEqual(["short", "after"]);
    expect(errors.map((e) => e.message)).toEqual([
      "an SSE event longer than 1000 characters was dropped",
      "an SSE event longer than 1000 characters was dropped",
    ]);
  });
});
