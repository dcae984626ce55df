// The argument matrix against the ESM build (dist/node.mjs).
import * as tp from "../../../dist/node.mjs";
import { matrix } from "./matrix.mjs";

matrix(tp, "ESM");
