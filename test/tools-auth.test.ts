// `mcp-gen tools --url … --auth`: a protected server listed with OAuth (client credentials here,
// so no browser), authorization done before the listing connects; bad settings are usage errors.
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { toolsCommand } from "../generators/tools/command.js";
import { startAuthServer, startProtectedServer } from "./support/oauth-server.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const work = mkdtempSync(join(tmpdir(), "mcp-gen-tools-auth-"));
const run = (options: { url?: string; auth?: string; from?: string }) =>
  toolsCommand(
    { ...options, out: join(work, "protected.ts"), format: "md", timeoutMs: 5000 },
    () => {},
    () => {},
  );

it("lists a protected server with the auth settings given as JSON, keeping the token in the credentials file", async () => {
  const as = await startAuthServer({ clientSecrets: new Map([["robot", "s3cret"]]) });
  cleanups.push(() => as.close());
  const rs = await startProtectedServer({ authorizationServers: () => [as.issuer], grant: as.grant });
  cleanups.push(() => rs.close());
  const credentialsFile = join(work, "credentials.json");
  const auth = JSON.stringify({
    grant: "client_credentials",
    clientId: "robot",
    clientSecret: "s3cret",
    credentialsFile,
  });
  expect(await run({ url: rs.url, auth })).toBe(0);
  expect(readFileSync(join(work, "protected.ts"), "utf8")).toMatch(/^\s+write\(/m);
  expect(as.tokenRequests.map((r) => r.get("grant_type"))).toEqual(["client_credentials"]);
  expect(statSync(credentialsFile).mode & 0o777).toBe(0o600);
  // The next run finds the token in the file.
  expect(await run({ url: rs.url, auth })).toBe(0);
  expect(as.tokenRequests).toHaveLength(1);
});

it("refuses --auth without --url, settings that are not JSON, and unknown or missing settings", async () => {
  await expect(run({ from: "x.json", auth: "" })).rejects.toThrow("--auth needs --url");
  await expect(run({ url: "http://127.0.0.1:9/mcp", auth: "{nope" })).rejects.toThrow(/^--auth: expected JSON/);
  await expect(
    run({ url: "http://127.0.0.1:9/mcp", auth: '{"grant":"client_credentials","colour":1}' }),
  ).rejects.toThrow(
    '--auth: unknown setting "colour"; client_credentials needs a clientId; client_credentials needs a clientSecret or a privateKeyFile',
  );
});
