// The page's one state object, shared by its demos (routing.js, policies.js, search.js,
// skills.js gets the package from app.js), and `commit`, which every change of the
// scenario goes through.
import { DEFAULT, normalize, toHash } from "./scenario.js";

export const page = {
  tp: null, // the package module, once loaded
  demoVectors: null, // the demo's precomputed vectors (demo-vectors.js), once loaded
  scenario: normalize(DEFAULT), // the routing and policies demos' inputs (the URL hash holds it)
  lastHash: "", // the hash the page last wrote (a hashchange to it is the page's own)
  shown: { decision: null, rows: null }, // the shown outcome's decision report, and the rows it was resolved from (JSON)
  turns: { seq: 0, inflight: null, stale: 0 }, // the newest resolution (only its answer is shown), its AbortController, answers discarded
  search: { toolset: "", message: "", limit: 3, seq: 0 }, // the tool search demo's inputs and its newest search
  rerun: (route) => {}, // what a change runs: set by app.js
};

// A change of the scenario: into the URL hash, then the routing re-resolved (which runs the
// policies after it), or only the policies (`route: false`).
export function commit({ route = true } = {}) {
  page.lastHash = toHash(page.scenario);
  history.replaceState(null, "", page.lastHash);
  page.rerun(route);
}
