// Never poisoned, concurrency, re-entrancy and large inputs against the CommonJS build.
const tp = require("../../../dist/node.cjs");

module.exports = import("./behaviour.mjs").then(({ behaviour }) => behaviour(tp, "CommonJS"));
