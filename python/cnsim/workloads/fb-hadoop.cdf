# FB Hadoop flow sizes (a Facebook Hadoop cluster, by the file's name), as the HPCC authors tabulate them
# for their evaluation (Li et al., "HPCC: High Precision Congestion Control", SIGCOMM 2019): the points
# below are those of traffic_gen/FbHdp_distribution.txt in github.com/alibaba-edu/High-Precision-Congestion-Control
# (its README: "WebSearch_distribution.txt and FbHdp_distribution.txt are the ones used in the HPCC
# paper"), whose probabilities are in percent; the artifact names no further source.
# Format (cnsim): "size_bytes cumulative_probability" per line, both non-decreasing, the last
# probability 1. Between points the CDF is linear in the size; mean 120.4 kB, 90 % of flows below 120 kB.
0 0
100 0.01
200 0.02
300 0.05
350 0.15
400 0.2
500 0.3
600 0.4
700 0.5
1000 0.6
2000 0.67
7000 0.7
30000 0.72
50000 0.82
80000 0.87
120000 0.9
300000 0.95
1000000 0.975
2000000 0.99
10000000 1
