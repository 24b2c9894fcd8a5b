// The JSON format: the findings list as is (docs/diff-report.schema.json is its contract).
import type { Renderer } from "./renderer.js";

export const jsonRenderer: Renderer = {
  format: "json",
  render: (report) => JSON.stringify(report, null, 2) + "\n",
};
