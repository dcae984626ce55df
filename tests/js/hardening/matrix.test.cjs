// The argument matrix against the CommonJS build (dist/node.cjs).
const tp = require("../../../dist/node.cjs");

module.exports = import("./matrix.mjs").then(({ matrix }) => matrix(tp, "CommonJS"));
