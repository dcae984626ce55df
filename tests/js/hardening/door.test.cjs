// Issue 19 faults against the CommonJS build.
const tp = require("../../../dist/node.cjs");

module.exports = import("./door.mjs").then(({ door }) => door(tp, "CommonJS"));
