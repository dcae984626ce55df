// The baseline must pass the package's own JS behaviour suites, or the race is not fair.
import * as baseline from "./baseline.mjs";
import { routing } from "../tests/js/suites/routing.mjs";
import { router } from "../tests/js/suites/router.mjs";
import { policies } from "../tests/js/suites/policies.mjs";

routing(baseline);
router(baseline, { entry: new URL("./baseline.mjs", import.meta.url).pathname, format: "esm" });
policies(baseline);
