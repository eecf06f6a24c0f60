// What the courier process does at its very end, where Swift cannot reach C's standard streams (`stdout` is a
// global the strict concurrency checking refuses to read).
#ifndef COURIER_PROCESS_H
#define COURIER_PROCESS_H

/// Writes what C's standard output and error hold in their buffers. Only those two: flushing every stream would
/// wait for standard input's lock, which a thread blocked reading it holds.
void courier_flush_standard_streams(void);

#endif
