//! The `audio` facility (§8.13, §18): `aud` clips and the channel pool.
//! Compiled only with the cargo feature `audio`, so that only the
//! runtimes that register it link ALSA (through rodio and cpal).
//!
//! | native | Festina form | result |
//! |---|---|---|
//! | `aud_load` | `aud a = path` (text → aud, §8.20 rule 5) | aud; a null path gives null; an unreadable file or bytes that do not decode are a runtime failure (§8.13, §14.2) |
//! | `aud_load_async` | `path.callback(fn)` with `fn: func[aud]:void` (§12.5) | the aud, silent until `fn` runs; a failed load stays silent and still calls `fn` |
//! | `aud_columns` | emitted before `db_open` in a program with an `aud` table column or query field (§15.3) | void: lets the database natives decode `aud` columns |
//! | `aud_play` / `aud_play_on` | `clip.play()` / `clip.play(n)` | int: the channel, or -1 |
//! | `aud_play_loop` / `aud_play_loop_on` | `clip.playLoop()` / `clip.playLoop(n)` | int: the channel, or -1 |
//! | `aud_stop` | `clip.stop()` | void |
//! | `aud_is_playing` | `clip.isPlaying()` | bool |
//! | `aud_save`, `aud_save_as`, `aud_save_copy` | `.save()`, `.save(path)`, `.saveCopy(path)` (§16.6) | bool; `save()` with no path is a runtime failure |
//! | `audio_stop_all` | `stopAudioPlayer()` | void |
//! | `audio_stop_channel` | `stopAudioPlayer(n)` | void |
//! | `audio_is_channel_playing` | `isAudioPlayerPlaying(n)` | bool |
//! | `audio_set_max` | `setMaxAudioPlayers(n)` | void |
//! | `audio_max` | `maxAudioPlayers()` | int |
//!
//! A null clip receiver plays nothing (`-1`), is not playing, and stops
//! nothing; saving it is the "no path" runtime failure.
//!
//! # Design: who owns what
//! - **Clips** ([`clip::AudObj`]) belong to the interpreter that made
//!   them, like every value; decoding ([`decode`]) is a pure function run
//!   on that thread, or on an event-loop worker for a background load.
//! - **The pool** ([`pool::Pool`]: the 64 channels, reservations, the
//!   limit) and **the output** ([`sink::Output`]: the device or the null
//!   sink, opened by the first `play()`) exist once per process, because
//!   the sound card does: §18 makes the channels process-global, and a
//!   second mixer would fight the first for the device. They live in this
//!   module's one static, [`AUDIO`], behind a mutex, the only process-wide
//!   state of the standard library besides the optional trace
//!   ([`trace`]). Only the main thread ever takes the lock: audio builtins
//!   inside a thread body are a compile error (§18, §20.3), and the audio
//!   thread never touches the pool; it sees each playback only through
//!   its atomic flags ([`pool::PlayCtl`]). So the lock is never contended
//!   and never held across a call back into Festina.
//! - **Playbacks** are rodio sources reading the clip's samples in place,
//!   mixed by rodio on the output's thread (cpal's callback, or the null
//!   sink's thread), so `play()` never blocks on audio.
//!
//! Audio does not keep a program alive (§12.2 lists what does): a program
//! that ends while a clip plays ends the sound with it.

pub mod clip;
pub mod decode;
pub mod pool;
pub mod sink;
pub mod trace;

pub use clip::{encoded_bytes, value_from_bytes, AudObj};

use clip::Decoded;
use festina_vm::event_loop::JobResult;
use festina_vm::interp::Interpreter;
use festina_vm::native::{NativeEntry, Trap};
use festina_vm::value::{HandleObj, Value};
use pool::Pool;
use sink::Output;
use std::rc::Rc;
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

/// The natives of the facility, for the registry.
pub fn natives() -> Vec<NativeEntry> {
    macro_rules! entries {
        ($($name:literal => $f:ident),* $(,)?) => {
            vec![$(NativeEntry { name: $name, func: $f }),*]
        };
    }
    entries![
        "aud_load" => load,
        "aud_load_async" => load_async,
        "aud_columns" => columns,
        "aud_play" => play,
        "aud_play_on" => play_on,
        "aud_play_loop" => play_loop,
        "aud_play_loop_on" => play_loop_on,
        "aud_stop" => stop,
        "aud_is_playing" => is_playing,
        "aud_save" => save,
        "aud_save_as" => save_as,
        "aud_save_copy" => save_copy,
        "audio_stop_all" => stop_all,
        "audio_stop_channel" => stop_channel,
        "audio_is_channel_playing" => is_channel_playing,
        "audio_set_max" => set_max,
        "audio_max" => max,
    ]
}

/// The process's channel pool and output (module docs).
struct Audio {
    pool: Pool,
    output: Option<Output>,
}

/// The one pool and output of the process (module docs: why a static).
static AUDIO: Mutex<Option<Audio>> = Mutex::new(None);

/// The pool and output, created on first use. A poisoned lock (which
/// nothing here can cause: no code under it panics) is taken over.
fn audio() -> MutexGuard<'static, Option<Audio>> {
    let mut g = AUDIO.lock().unwrap_or_else(|e| e.into_inner());
    if g.is_none() {
        *g = Some(Audio {
            pool: Pool::new(),
            output: None,
        });
    }
    g
}

fn with_audio<R>(f: impl FnOnce(&mut Audio) -> R) -> R {
    let mut g = audio();
    f(g.as_mut().expect("created by audio()"))
}

/// How a database column of type `aud` becomes a value (§15.3), kept in
/// the interpreter by `aud_columns` for the database natives, which do not
/// link the decoders themselves (so the database runtime stays without
/// them).
#[derive(Clone, Copy)]
pub struct AudColumns(pub fn(&[u8]) -> Value);

/// The clip receiver (argument 0), if not null.
fn recv(args: &[Value]) -> Option<&AudObj> {
    args.first().and_then(Value::as_handle::<AudObj>)
}

fn text(args: &[Value], i: usize) -> Option<&str> {
    args.get(i).and_then(Value::as_str)
}

fn int(args: &[Value], i: usize) -> i64 {
    args.get(i).map_or(0, Value::as_int)
}

/// Why a synchronous load failed, as the runtime failure says it.
fn load_failure(path: &str, e: Option<decode::DecodeError>) -> String {
    use decode::DecodeError as E;
    let why = match e {
        None => return format!("cannot read audio file '{path}'"),
        Some(E::Unrecognized) => "not a WAV or MP3 file",
        Some(E::UnsupportedWav) => {
            "unsupported WAV (it must be 16-bit PCM with at least one channel and a sample rate)"
        }
        Some(E::Truncated) => "the file is truncated",
        Some(E::Malformed) => "the file is corrupt",
    };
    format!("cannot load audio '{path}': {why}; aud accepts 16-bit PCM WAV and MP3")
}

/// `aud a = path` (§8.13): read and decode now. A null path is a null
/// clip; an unreadable, unrecognised or corrupt file is a runtime failure
/// (§14.2).
fn load(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let Some(path) = text(args, 0) else {
        return Ok(Value::Null);
    };
    let started = Instant::now();
    let decoded = crate::blob::file::read_file(path)
        .ok_or(None)
        .and_then(|b| clip::decode_bytes(b, started).map_err(Some));
    match decoded {
        Ok(d) => Ok(Value::handle(AudObj::new(d, Some(path.to_string())))),
        Err(e) => Err(Trap::Fail(format!(
            "{} at {}",
            load_failure(path, e),
            it.location()
        ))),
    }
}

/// `path.callback(fn)` (§12.5): a silent clip now; the file is read and
/// decoded on a worker thread, then the same clip is filled on the main
/// thread and `fn(clip)` runs from the event loop. A failed load leaves
/// the clip silent and still calls `fn`.
fn load_async(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let callback = args.get(1).cloned().unwrap_or_default();
    let path = text(args, 0).map(str::to_string);
    let own = path.clone().filter(|p| !p.is_empty());
    let target = Rc::new(HandleObj::new(AudObj::pending(own)));
    let value = Value::Handle(Rc::clone(&target));
    it.event_loop()?.spawn_job(
        Box::new(move || {
            let started = Instant::now();
            let d = path
                .and_then(|p| crate::blob::file::read_file(&p))
                .and_then(|b| clip::decode_bytes(b, started).ok());
            Box::new(d) as JobResult
        }),
        Box::new(move |it, result| {
            if let (Ok(d), Some(clip)) = (
                result.downcast::<Option<Decoded>>(),
                target.downcast_ref::<AudObj>(),
            ) {
                if let Some(d) = *d {
                    clip.fill(d);
                }
            }
            it.call_function(&callback, &[Value::Handle(target)])
                .map(|_| ())
        }),
    );
    Ok(value)
}

/// Start-up of a program with `aud` columns: let the database natives
/// decode them.
fn columns(it: &mut Interpreter, _args: &[Value]) -> Result<Value, Trap> {
    it.set_ext(AudColumns(value_from_bytes));
    Ok(Value::Null)
}

/// Play the receiver on `channel` (`None`: the pool picks), once or
/// looping: the channel used, or -1.
fn start(args: &[Value], channel: Option<i64>, looping: bool) -> Value {
    let Some(clip) = recv(args) else {
        return Value::Int(-1);
    };
    let pcm = clip.pcm();
    let started = with_audio(|a| {
        let out = a.output.get_or_insert_with(Output::open);
        a.pool
            .play(&pcm, channel, looping, out.mixer(), out.position())
    });
    match started {
        Some((ch, ctl)) => {
            clip.add_play(ctl);
            Value::Int(ch as i64)
        }
        None => Value::Int(-1),
    }
}

/// `clip.play()`.
fn play(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(start(args, None, false))
}

/// `clip.play(n)`.
fn play_on(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(start(args, Some(int(args, 1)), false))
}

/// `clip.playLoop()`.
fn play_loop(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(start(args, None, true))
}

/// `clip.playLoop(n)`.
fn play_loop_on(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(start(args, Some(int(args, 1)), true))
}

/// `clip.stop()`.
fn stop(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    if let Some(c) = recv(args) {
        c.stop();
    }
    Ok(Value::Null)
}

/// `clip.isPlaying()`.
fn is_playing(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(Value::Bool(recv(args).is_some_and(AudObj::is_playing)))
}

/// `clip.save()`: a clip with no path is a runtime failure (§14.2, §16.6).
fn save(it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    match recv(args).and_then(AudObj::save) {
        Some(ok) => Ok(Value::Bool(ok)),
        None => Err(Trap::Fail(format!(
            "save() on an aud with no path at {}",
            it.location()
        ))),
    }
}

/// `clip.save(path)`.
fn save_as(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let ok = match (recv(args), text(args, 1)) {
        (Some(c), Some(p)) => c.save_as(p),
        _ => false,
    };
    Ok(Value::Bool(ok))
}

/// `clip.saveCopy(path)`.
fn save_copy(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    let ok = match (recv(args), text(args, 1)) {
        (Some(c), Some(p)) => c.save_copy(p),
        _ => false,
    };
    Ok(Value::Bool(ok))
}

/// `stopAudioPlayer()`.
fn stop_all(_it: &mut Interpreter, _args: &[Value]) -> Result<Value, Trap> {
    with_audio(|a| a.pool.stop_all());
    Ok(Value::Null)
}

/// `stopAudioPlayer(n)`.
fn stop_channel(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    with_audio(|a| a.pool.stop_channel(int(args, 0)));
    Ok(Value::Null)
}

/// `isAudioPlayerPlaying(n)`.
fn is_channel_playing(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    Ok(Value::Bool(with_audio(|a| a.pool.is_playing(int(args, 0)))))
}

/// `setMaxAudioPlayers(n)`.
fn set_max(_it: &mut Interpreter, args: &[Value]) -> Result<Value, Trap> {
    with_audio(|a| a.pool.set_max(int(args, 0)));
    Ok(Value::Null)
}

/// `maxAudioPlayers()`.
fn max(_it: &mut Interpreter, _args: &[Value]) -> Result<Value, Trap> {
    Ok(Value::Int(with_audio(|a| a.pool.max() as i64)))
}
