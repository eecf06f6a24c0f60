// What the courier process asks of C: what it does at its very end, where Swift cannot reach C's standard
// streams (`stdout` is a global the strict concurrency checking refuses to read), and which core it runs on.
#ifndef COURIER_PROCESS_H
#define COURIER_PROCESS_H

/// Writes what C's standard output and error hold in their buffers. Only those two: flushing every stream would
/// wait for standard input's lock, which a thread blocked reading it holds.
void courier_flush_standard_streams(void);

/// The core the calling thread runs on now (-1 when the system cannot say): how the output lane tells whether
/// its thread runs beside the sender or only takes turns with it.
int courier_current_core(void);

#endif
