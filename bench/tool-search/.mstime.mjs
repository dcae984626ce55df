import { miniSearch, synthetic, data } from '/work/main/bench/tool-search/compare.mjs';
const queries = data.questions.map((q) => q.query);
for (const n of [500, 10000, 50000]) {
  const tools = synthetic(data.tools, n);
  let t0 = performance.now();
  const search = miniSearch.rank(tools);
  const build = performance.now() - t0;
  for (const q of queries.slice(0, 50)) search(q, 5);
  t0 = performance.now();
  for (const q of queries) search(q, 5);
  console.log(n, build.toFixed(1), ((performance.now() - t0) / queries.length).toFixed(3));
}
