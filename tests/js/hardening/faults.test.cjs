// Issue 13 faults against the CommonJS build.
const tp = require("../../../dist/node.cjs");

module.exports = import("./faults.mjs").then(({ faults }) => faults(tp, "CommonJS"));
