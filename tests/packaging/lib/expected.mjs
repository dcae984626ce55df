// What fixtures/scenario.js must report in every runtime: SPEC sections 2 to 4 as a
// consumer sees them. Reasons are the exact strings of the SPEC's refusal table.
import assert from "node:assert/strict";

const refused = (reason, unresolved = []) => ({
  isRefusal: true,
  isRouted: false,
  kind: "refused",
  reason,
  unresolved,
  frozen: true,
  activeTools: "undefined",
});

const NAMES = ["web_search", "calendar_lookup", "__proto__", "a\uD800"];
const UNRESOLVED = ["Use the calendar when the user asks about dates", "a\uFFFD", "Web_Search"];

export const expectedReport = {
  sync: { isPolicy: true, frozen: true, matchesWebSearch: true, matchesSendEmail: false },
  routed: {
    isRouted: true,
    kind: "routed",
    names: NAMES,
    unresolved: UNRESOLVED,
    frozen: true,
    json: { kind: "routed", names: NAMES, unresolved: UNRESOLVED },
    loneSurrogateKept: true,
    activeTools: NAMES,
  },
  refusals: {
    noLayer: refused("no procedural layer registered; allowing all tools"),
    throwsTypeError: refused("procedural retrieval failed (TypeError); allowing all tools"),
    rejectsCustom: refused("procedural retrieval failed (StoreDownError); allowing all tools"),
    throwsString: refused("procedural retrieval failed (string); allowing all tools"),
    timedOut: refused("procedural retrieval timed out after 5 ms; allowing all tools"),
    empty: refused("no skills in the procedural layer; allowing all tools"),
    allInactive: refused("every skill is inactive; allowing all tools"),
    noneResolved: refused("no skill resolved to a registered tool; allowing all tools", ["calendar", "Use the calendar"]),
  },
  badRegistered: { isTypeError: true, namesIndex: true },
  router: {
    unavailableIs: true,
    missing: ["procedural-layer"],
    sameOutcome: true,
    warnings: 1,
    warningIs: true,
    warningName: "ToolRoutingUnavailableWarning",
    servingUnavailable: null,
    served: ["send_email", "web_search"],
    bound: ["web_search", "send_email"],
    boundKeepsIdentity: true,
    unchangedOnRefusal: true,
  },
  policy: {
    model: "MODEL (same object)",
    source: "policy",
    policy: "calendar-intent",
    chatModel: "FAST (same object)",
    chatPolicy: "fast-chat",
    otherSource: "resolver",
    otherModel: "RESOLVED (same object)",
    call: { name: "calendar_lookup", args: { query: "when is easter", source: "policy" }, id: "call_1" },
    originalIsCall: true,
    redirectedBy: "calendar-intent",
    dropped: null,
    callUntouched: true,
    gatedCallIsOriginal: true,
    gatedTarget: "calendar_lookup",
    gatedReasonIsText: true,
    droppedWarnings: 1,
    droppedWarningIs: true,
  },
  predicateError: { causeIsThrown: true, namesPolicy: true, namesFunction: true },
  search: { top: ["get_weather"], size: 2, routed: ["get_weather"], decisions: 1, rule: "routed", sameOutcome: true, hidden: ["send_email"] },
  snapshot: { sameRanking: true, sameBytes: true, dimensions: 2, refRead: ["send_package"], entries: ["plot", "get_weather", "send_package"] },
  afterErrors: ["send_email"],
};

// Compares a report field by field, so a failure names the runtime and the field.
// `extra` holds the runtime's own fields (which entry it loaded, what it touched).
export function checkReport(runtime, text, extra = {}) {
  let report;
  try {
    report = JSON.parse(text);
  } catch (cause) {
    throw new Error(`${runtime}: the consumer did not answer JSON: ${String(text).slice(0, 500)}`, { cause });
  }
  if (report && report.error) assert.fail(`${runtime}: the consumer threw: ${report.error}`);
  const expected = { ...expectedReport, ...extra };
  for (const [section, want] of Object.entries(expected)) {
    if (want && typeof want === "object" && !Array.isArray(want)) {
      assert.ok(report[section] && typeof report[section] === "object", `${runtime}: ${section} missing from the report`);
      for (const [field, value] of Object.entries(want)) {
        assert.deepStrictEqual(report[section][field], value, `${runtime}: ${section}.${field}`);
      }
      assert.deepStrictEqual(Object.keys(report[section]).sort(), Object.keys(want).sort(), `${runtime}: fields of ${section}`);
    } else {
      assert.deepStrictEqual(report[section], want, `${runtime}: ${section}`);
    }
  }
  assert.deepStrictEqual(Object.keys(report).sort(), Object.keys(expected).sort(), `${runtime}: sections of the report`);
  return report;
}
