//! `ToolIndex.load` from a `Response` (fetch, an R2 object), a `Blob` or a `ReadableStream`
//! of `Uint8Array` chunks: a Promise of the index. The package's own asynchronous work,
//! which always ends or aborts, so a wasm future awaits each read (a `JsFuture` of
//! wasm-bindgen-futures): every chunk is copied into one buffer in the module, sized once
//! from the snapshot's header, then decoded as `load` decodes a `Uint8Array`
//! (`index::decode`). The caller's code (the source's getters, `getReader`, `read`, its
//! promises) runs in `host.js` (`sourceOf`, `Reading`), whose reads never reject: nothing
//! it does unwinds through the module.
//!
//! The future is polled through the door (`host.js` `drive`), at once and then each time
//! the read it waits for settles, rather than by wasm-bindgen-futures' executor
//! (`future_to_promise`, which weighed 4.4 KB of gzip, measured, and polls outside the
//! door): a trap fails that load alone, and a load whose stream stalls and is dropped
//! is freed with its `Loading` at garbage collection (see [`Lent`]).

use super::index::{decode, load_options, snapshot_error, Options};
use super::options::Fields;
use super::turn::{broken_signal, reason};
use super::wire::Stream;
use super::{host, must_be, unreadable, JsResult, Message};
use crate::search::snapshot::{self, HEADER};
use alloc::boxed::Box;
use alloc::rc::Rc;
use alloc::sync::Arc;
use alloc::task::Wake;
use alloc::vec::Vec;
use core::cell::RefCell;
use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll, Waker};
use js_sys::{Array, Promise, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(raw_module = "./host.js")]
extern "C" {
    #[wasm_bindgen(js_name = openSource)]
    fn open_source(value: &JsValue, blob: bool) -> JsValue;
    #[derive(Clone)]
    pub type Reading;
    #[wasm_bindgen(method, catch)]
    fn listen(this: &Reading, signal: &JsValue) -> Result<(), JsValue>;
    #[wasm_bindgen(method)]
    fn next(this: &Reading) -> Promise;
    #[wasm_bindgen(method)]
    fn end(this: &Reading, cancel: bool, reason: &JsValue);
    /// Polls `loading` through the door, lending it `reading`, until it answers.
    fn drive(loading: Loading, reading: &Reading) -> Promise;
}

/// The most a streamed snapshot may announce (1 GiB): its decoding needs about as much
/// again, within the 4 GiB a wasm32 module may grow to.
const MOST: u64 = 1 << 30;
const SIGNAL: &str = "ToolIndex.load: options.signal";

fn place() -> Message {
    Message::new("ToolIndex.load: source")
}

fn bytes_place() -> Message {
    Message::new("ToolIndex.load: source's bytes")
}

/// A Promise of the index when the source the facade judged (host.js `sourceOf`) is a
/// stream source (`None`: it is none, and `load` refuses it as bytes). Whatever fails is a
/// rejection, before the first read too.
pub(super) fn streamed(source: &JsValue, options: JsResult<Fields>) -> Option<Promise> {
    if source.is_undefined() {
        return None;
    }
    // [a wire `Stream`, the stream or Blob].
    let judged = match host::caught(source.clone()) {
        Ok(judged) => judged.unchecked_into::<Array>(),
        Err(cause) => return Some(Promise::reject(&unreadable(place(), &cause))),
    };
    let kind = Stream::of(judged.get(0).as_f64().unwrap_or(0.0) as u32).unwrap_or(Stream::None);
    if kind == Stream::None {
        return None;
    }
    let begun = start(kind, &judged.get(1), options);
    Some(match begun {
        Ok(promise) => promise,
        Err(error) => Promise::reject(&error),
    })
}

fn start(kind: Stream, value: &JsValue, options: JsResult<Fields>) -> JsResult<Promise> {
    let (options, signal) = load_options(options)?;
    if kind == Stream::BodyUsed {
        let message = "'s body was read already (bodyUsed): a body is read once; load from a new Response, or from response.clone() made before reading it";
        return Err(place().add(message).type_error());
    }
    if let Some(signal) = &signal {
        let aborted = host::get(signal, |k| &k.aborted).map_err(|c| broken_signal(SIGNAL, &c))?;
        if aborted.is_truthy() {
            return Err(reason(SIGNAL, signal)?);
        }
    }
    if kind == Stream::NullBody {
        // A null body: no bytes, refused as an empty Uint8Array is.
        return decode(Vec::new(), options, &bytes_place).map(|index| Promise::resolve(&index));
    }
    let opened = host::caught(open_source(value, kind == Stream::Blob))
        .map_err(|cause| unreadable(place(), &cause))?;
    let reading: Reading = match opened.dyn_into() {
        Ok(reading) => reading,
        Err(other) => {
            return Err(must_be(
                place().add(".stream()"),
                "a ReadableStream",
                &other,
            ))
        }
    };
    if let Some(signal) = &signal {
        if let Err(cause) = reading.listen(signal) {
            let error = broken_signal(SIGNAL, &cause);
            reading.end(true, &error);
            return Err(error);
        }
    }
    let lent = Lent::default();
    let loading = Loading {
        future: Box::pin(read_all(lent.clone(), options)),
        waker: Waker::from(Arc::new(Noop)),
        lent,
    };
    Ok(drive(loading, &reading))
}

/// The source's `Reading`, lent to the future for the length of each poll: held by the
/// module between polls (in its reference table, a root), it would keep its own promises,
/// and through them the whole load, alive; so a load whose stream stalls and is dropped is
/// freed with its `Loading` at garbage collection (its buffer included).
type Lent = Rc<RefCell<Option<Reading>>>;

fn lend(lent: &Lent) -> Reading {
    let reading = lent.borrow().clone();
    reading.unwrap_or_else(|| JsValue::UNDEFINED.unchecked_into())
}

/// A load under way: the future reading and decoding it.
#[wasm_bindgen(skip_typescript)]
pub struct Loading {
    future: Pin<Box<dyn Future<Output = JsResult<JsValue>>>>,
    waker: Waker,
    lent: Lent,
}

/// Nothing to wake: `drive` polls again once the read awaited settled.
struct Noop;

impl Wake for Noop {
    fn wake(self: Arc<Self>) {}
}

#[wasm_bindgen]
impl Loading {
    /// Runs the load as far as it goes: the index, or `undefined` while a read is awaited.
    pub fn poll(&mut self, reading: Reading) -> JsResult<JsValue> {
        *self.lent.borrow_mut() = Some(reading);
        let polled = self
            .future
            .as_mut()
            .poll(&mut Context::from_waker(&self.waker));
        *self.lent.borrow_mut() = None;
        match polled {
            Poll::Ready(index) => index,
            Poll::Pending => Ok(JsValue::UNDEFINED),
        }
    }
}

/// Reads every chunk into one buffer, then decodes it: its first [`HEADER`] bytes, then
/// the whole length they announce, reserved at once (checked against [`MOST`] and what
/// memory allows), and never more. A failure cancels the reader.
/// (No JavaScript value of the load's is held across an `await`, but `options`.)
async fn read_all(lent: Lent, options: Options) -> JsResult<JsValue> {
    let fail = |error: JsValue| {
        lend(&lent).end(true, &error);
        error
    };
    let mut head = [0u8; HEADER];
    let (mut got, mut total, mut chunks) = (0usize, 0usize, 0u32);
    let mut bytes: Vec<u8> = Vec::new();
    loop {
        // [0, chunk], [1] the end, [2, error] the stream failed, [3, signal] aborted; never
        // rejects.
        let next = lend(&lent).next();
        let read: Array = match JsFuture::from(next).await {
            Ok(read) => read.unchecked_into(),
            Err(error) => Array::of2(&JsValue::from(2), &error),
        };
        let chunk = match read.get(0).as_f64() {
            Some(0.0) => read.get(1),
            Some(1.0) => break,
            Some(2.0) => return Err(fail(unreadable(place(), &read.get(1)))),
            _ => return Err(fail(reason(SIGNAL, &read.get(1)).unwrap_or_else(|e| e))),
        };
        // A Uint8Array of any realm, as a plain view (no code of the caller's runs).
        let view = host::bytes_of(&chunk).unwrap_or_default();
        let Some(data) = view.dyn_ref::<Uint8Array>() else {
            let at = place().add("'s chunk ").add_js(&JsValue::from(chunks));
            return Err(fail(must_be(at, "a Uint8Array", &chunk)));
        };
        chunks += 1;
        let n = data.length() as usize;
        let mut at = 0;
        if got < HEADER {
            at = (HEADER - got).min(n);
            data.subarray(0, at as u32)
                .copy_to(&mut head[got..got + at]);
            got += at;
            if got < HEADER {
                continue;
            }
            let announced =
                snapshot::declared(&head).map_err(|e| fail(snapshot_error(bytes_place(), e)))?;
            total = announced.min(MOST) as usize;
            if announced > MOST || bytes.try_reserve_exact(total).is_err() {
                let message = bytes_place()
                    .add(" announce a snapshot of ")
                    .add_js(&JsValue::from(announced as f64))
                    .add(" bytes, more than the module can hold (at most 1073741824, as memory allows)");
                return Err(fail(message.range_error()));
            }
            bytes.extend_from_slice(&head);
        }
        let len = bytes.len();
        if n - at > total - len {
            // (Not read to their end: how many they are is not known.)
            let message = bytes_place()
                .add(" are more than the ")
                .add_js(&JsValue::from(total as f64))
                .add(" of the snapshot they start with");
            return Err(fail(message.range_error()));
        }
        // Within the room reserved: no reallocation, no second copy.
        bytes.resize(len + n - at, 0);
        data.subarray(at as u32, n as u32)
            .copy_to(&mut bytes[len..]);
    }
    lend(&lent).end(false, &JsValue::UNDEFINED);
    if got < HEADER {
        bytes.extend_from_slice(&head[..got]);
    }
    decode(bytes, options, &bytes_place)
}
