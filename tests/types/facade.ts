// The facade as written (src/js/*.js, checked with checkJs: tsconfig.facade.json) held to the
// published types (src/js/tool-palette.d.ts, which the build ships as index.d.ts): every
// export api.js gives is assignable to the declared one, its constructors, methods, getters
// and fields included. A wrong type in the facade, or a declared export it lacks, fails here.
// (`ready` and `init` are the entries', which the build declares: not api.js's.)
import * as facade from "../../src/js/api.js";
import type * as published from "../../src/js/tool-palette.js";

export const checked: Omit<typeof published, "ready" | "init"> = facade;
