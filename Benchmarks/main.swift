// `make bench`: each benchmark prints its figures as ratios against a reference measured in the same run.
PipelineBench.run()
WebSocketBench.run()
CacheBench.run()
BodyBench.run()
CollectionsBench.run()
TerminalBench.run()
StartupBench.run()
LiveModeBench.run()
