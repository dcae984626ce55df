// Generated from src/js/wire.rs by `UPDATE_WIRE=1 cargo test wire`; do not edit.
export const Kind = Object.freeze({ Undefined: 0, Null: 1, Boolean: 2, Number: 3, String: 4, Function: 5, Array: 6, Object: 7, BigInt: 8, Symbol: 9 });
export const Palette = Object.freeze({ Nothing: 0, Routed: 1, NotRouted: 2, Names: 3, Unreadable: 4 });
export const Listed = Object.freeze({ Strings: 0, Unreadable: 1, NotIterable: 2, IteratorUnreadable: 3, NotIterated: 4, NotString: 5 });
export const Source = Object.freeze({ Default: 0, Resolver: 1, Policy: 2 });
export const sources = Object.freeze(["default", "resolver", "policy"]);
