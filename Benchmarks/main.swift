// `make bench`: each benchmark prints its figures as ratios against a reference measured in the same run.
// `COURIER_BENCH_ONLY=body,scroll` runs only the named ones.
import Foundation

let only = ProcessInfo.processInfo.environment["COURIER_BENCH_ONLY"].map { Set($0.lowercased().split(separator: ",").map(String.init)) }
func bench(_ name: String, _ run: () -> Void) { if only?.contains(name) ?? true { run() } }
bench("pipeline") { PipelineBench.run() }
bench("nginx") { NginxBench.run() }
bench("load") { LoadBench.run() }
bench("websocket") { WebSocketBench.run() }
bench("grpc") { GRPCBench.run() }
bench("cache") { CacheBench.run() }
bench("body") { BodyBench.run() }
bench("mask") { MaskBench.run() }
bench("jsonstream") { JSONStreamBench.run() }
bench("sendtoscreen") { SendToScreenBench.run() }
bench("scroll") { ScrollBench.run() }
bench("filter") { FilterBench.run() }
bench("collections") { CollectionsBench.run() }
bench("openapi") { OpenAPIBench.run() }
bench("terminal") { TerminalBench.run() }
bench("startup") { StartupBench.run() }
bench("firstframe") { FirstFrameBench.run() }
bench("oneshot") { OneShotBench.run(); BusyCore.beside("oneshot") { OneShotBench.run() } }
bench("run") { RunCommandBench.run(); BusyCore.beside("run") { RunCommandBench.run() } }
bench("runjobs") { RunJobsBench.run(); BusyCore.beside("runjobs") { RunJobsBench.run() } }
bench("livemode") { LiveModeBench.run() }
bench("script") { ScriptBench.run() }
bench("history") { HistorySearchBench.run() }
bench("treefilter") { TreeFilterBench.run() }
