// Ajv as a submitter's JavaScript tool runs it: draft 2020-12 with Ajv's default options (strict mode).
// Reads a JSON request {"schemas": {NAME: PATH}, "cases": [[NAME, INSTANCE], ...]} from the file named by its
// argument; prints one JSON object: each schema's compile error (null when it compiles), everything Ajv logged
// (strict mode's softer checks log instead of throwing), and each case's verdict.
"use strict";
const fs = require("fs");
const Ajv2020 = require("ajv/dist/2020");

const request = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const logged = [];
const logger = {
  log: (...args) => logged.push(["log", args.join(" ")]),
  warn: (...args) => logged.push(["warn", args.join(" ")]),
  error: (...args) => logged.push(["error", args.join(" ")]),
};
const compiled = {};
const errors = {};
for (const [name, path] of Object.entries(request.schemas)) {
  const ajv = new Ajv2020({ logger });
  try {
    compiled[name] = ajv.compile(JSON.parse(fs.readFileSync(path, "utf8")));
    errors[name] = null;
  } catch (error) {
    errors[name] = String(error.message);
  }
}
const verdicts = request.cases.map(([name, instance]) => (compiled[name] ? compiled[name](instance) : null));
process.stdout.write(JSON.stringify({ compile_errors: errors, logged, valid: verdicts }) + "\n");
