// `make bench`: each benchmark prints its figures as ratios against a reference measured in the same run.
print("no benchmarks yet")
PipelineBench.run()
