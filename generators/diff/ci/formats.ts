// The CI formats, by name.
import type { CiRun } from "./entries.js";
import { renderGithub } from "./github.js";
import { renderJunit } from "./junit.js";

export type CiFormat = "github" | "junit";

export const CI_FORMATS: Record<CiFormat, (run: CiRun) => string> = { github: renderGithub, junit: renderJunit };
