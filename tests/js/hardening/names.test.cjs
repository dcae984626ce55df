// Exact names and trimming against the CommonJS build (dist/node.cjs).
const tp = require("../../../dist/node.cjs");

module.exports = import("./names.mjs").then(({ names }) => names(tp, "CommonJS"));
