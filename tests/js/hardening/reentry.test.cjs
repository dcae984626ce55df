// Issue 39 (re-entrant readers) against the CommonJS build.
const tp = require("../../../dist/node.cjs");

module.exports = import("./reentry.mjs").then(({ reentry }) => reentry(tp, "CommonJS"));
