// The build's check of the heap's promise (heap/src/tlsf.rs): a stack overflow, which V8
// raises inside wasm only at a call, cannot catch the allocator half-way, because each of
// its operations calls nothing once it has begun to change the heap. In the compiled module
// (with its names, before wasm-opt, which only ever inlines more), the global allocator's
// methods may call only the heap's one function that takes a block (`Heap::block`), and
// alloc_zeroed only alloc, each at a point where nothing has changed yet; `Heap::block`
// calls nothing. The module is read by binaryen's own disassembler (`wasm-dis`).
import { execFileSync } from "node:child_process";

// Function name patterns (as the name section spells them) and the calls each may make.
const RULES = [
  [/GlobalAlloc\$GT\$5alloc17h/, [/tlsf4Heap5block17h/]],
  [/GlobalAlloc\$GT\$12alloc_zeroed17h/, [/GlobalAlloc\$GT\$5alloc17h/, /tlsf4Heap5block17h/]],
  [/GlobalAlloc\$GT\$7dealloc17h/, []],
  [/GlobalAlloc\$GT\$7realloc17h/, [/tlsf4Heap5block17h/]],
  [/tlsf4Heap5block17h/, []],
];

/** Throws unless every allocator function of the wasm at `path` calls only what it may. */
export function checkHeap(path, wasmDis) {
  const text = execFileSync(wasmDis, [path], { encoding: "utf8", maxBuffer: 1 << 30 });
  const seen = RULES.map(() => 0);
  let rule = -1;
  for (const line of text.split("\n")) {
    const func = line.match(/^ \(func \$(\S+)/);
    if (func) {
      rule = RULES.findIndex(([name]) => name.test(func[1]));
      if (rule >= 0) seen[rule]++;
      continue;
    }
    const call = rule >= 0 && line.match(/\((call|call_indirect|call_ref|return_call\S*) \$?(\S*)/);
    if (call && !(call[1] === "call" && RULES[rule][1].some((allowed) => allowed.test(call[2])))) {
      throw new Error(`build: the allocator's ${RULES[rule][0]} calls ${call[1]} ${call[2]}: a stack overflow there would leave the heap half-updated (heap/src/tlsf.rs)`);
    }
  }
  const missing = RULES.filter((_, i) => seen[i] !== 1).map(([name]) => name);
  if (missing.length) throw new Error(`build: the allocator functions ${missing.join(", ")} were not found once each in ${path} (a new Rust? check scripts/heap-check.mjs)`);
}
