// Precompiles the Handlebars templates into dist/templates.json, after tsc in `npm run build`
// (generators/emit/templates.ts says why, and when a run uses them).
import { writeTemplateSpecs } from "../dist/generators/emit/templates.js";

writeTemplateSpecs();
