// Issue 39, items 1 and 2: callers' readers that call the package again. A reader that
// starts a turn over another registered list (which replaces the list the package keeps
// indexed) leaves the outer turn's list alone; a turn nested in a reader counts once
// toward the 64 nested calls the door allows, however many times it passes the door.
import { test, describe } from "node:test";
import assert from "node:assert/strict";

export function reentry(tp, label) {
  const { resolvePalette, ToolRouter } = tp;

  describe(`readers that call the package again (${label})`, () => {
    test("a reader (isActive, candidateOf, a row getter, the rows' iterator) that starts a turn over another list: the outer turn answers right", async () => {
      let k = 0;
      const inner = () => {
        const y = "y" + k++;
        return resolvePalette({ entries: () => [y], registered: ["x" + k, y] }).then((o) => assert.deepEqual([...o.names], [y]));
      };
      const nested = [];
      const readers = {
        isActive: { isActive: () => (nested.push(inner()), true) },
        candidateOf: { candidateOf: (row) => (nested.push(inner()), row) },
        getter: { rows: () => [{ get tool() { nested.push(inner()); return "b"; } }] },
        iterator: { rows: () => ({ *[Symbol.iterator]() { nested.push(inner()); yield "b"; } }) },
      };
      for (const [name, how] of Object.entries(readers)) {
        for (const registered of [["a", "b", "c"], ["a", "b", "c"]]) {
          const rows = how.rows ?? (() => ["b", "c"]);
          const outcome = await resolvePalette({ entries: () => rows(), registered, isActive: how.isActive, candidateOf: how.candidateOf });
          assert.equal(outcome.kind, "routed", name);
          assert.deepEqual([...outcome.names], how.rows ? ["b"] : ["b", "c"], name);
        }
      }
      await Promise.all(nested);
    });

    test("1,100 such turns (an async store too): each outer turn answers right, and the module after them", async () => {
      for (let i = 0; i < 1100; i++) {
        const registered = ["a", "b", "t" + (i % 7)];
        const outcome = await resolvePalette({
          entries: i % 2 ? async () => ["b"] : () => ["b"],
          registered,
          isActive: () => (resolvePalette({ entries: () => ["q"], registered: ["q", "r" + i] }).catch(() => {}), true),
        });
        assert.deepEqual([...outcome.names], ["b"]);
      }
      const router = new ToolRouter({ entries: () => ["b"], registered: ["a", "b"] });
      assert.deepEqual([...(await router.resolve()).names], ["b"]);
      router.dispose();
    });

    for (const via of ["resolvePalette", "ToolRouter.resolve"]) {
      test(`${via} nested through isActive at depths 33 to 65: 64 run, the outer turn settles; deeper ones are cut`, async () => {
        for (const D of [33, 40, 63, 64, 65, 80]) {
          let n = 0;
          const routers = [];
          const start = () => {
            const options = {
              entries: () => ["a"],
              registered: ["a", "b"],
              isActive: () => {
                n++;
                if (n < D) start().catch(() => {});
                return true;
              },
            };
            if (via === "resolvePalette") return resolvePalette(options);
            const router = new ToolRouter(options);
            routers.push(router);
            return router.resolve();
          };
          const outcome = await start();
          assert.equal(outcome.kind, "routed", `depth ${D}`);
          assert.equal(n, Math.min(D, 64), `depth ${D}`);
          routers.forEach((r) => r.dispose());
        }
      });
    }
  });
}
