// What the courier process asks of C: what it does at its very end, where Swift cannot reach C's standard
// streams (`stdout` is a global the strict concurrency checking refuses to read), which core it runs on, and the
// frames of the calling thread's stack for a crash report.
#ifndef COURIER_PROCESS_H
#define COURIER_PROCESS_H

/// Writes what C's standard output and error hold in their buffers. Only those two: flushing every stream would
/// wait for standard input's lock, which a thread blocked reading it holds.
void courier_flush_standard_streams(void);

/// The core the calling thread runs on now (-1 when the system cannot say): how the output lane tells whether
/// its thread runs beside the sender or only takes turns with it.
int courier_current_core(void);

/// Names the calling thread as top and gdb show it (the first 15 bytes of `name`).
void courier_name_this_thread(const char *name);

/// Writes up to `capacity` return addresses of the calling thread's stack into `frames`, innermost first, and
/// returns how many. Walks the stack with the unwinder the binary carries (libgcc's, linked statically in a
/// release build), so unlike glibc's `backtrace` it never loads libgcc_s.so at run time: that load, and the
/// processor probing its constructor does (each `cpuid` traps to the hypervisor on a virtual machine), was
/// 0.1-0.2 ms of every command's start, paid by the crash reporter's rehearsal. Async-signal-safe once it has
/// run once (its first call reads the unwinding tables' pages).
int courier_backtrace(void **frames, int capacity);

#endif
