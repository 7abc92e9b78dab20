# Web-search flow sizes: the background flows of Alizadeh et al., "Data Center TCP (DCTCP)",
# SIGCOMM 2010, Fig. 4 (flow size distribution of the measured query/background traffic), as the
# community tabulates them for simulation: the points below are those of the DCTCP_CDF table in
# github.com/datacenter/empirical-traffic-gen, which HPCC's traffic_gen (WebSearch_distribution.txt,
# in percent) and pFabric (Alizadeh et al., SIGCOMM 2013, Fig. 4a) use as well.
# Format (cnsim): "size_bytes cumulative_probability" per line, both non-decreasing, the last
# probability 1. Between points the CDF is linear in the size; mean 1.71 MB.
0 0
10000 0.15
20000 0.2
30000 0.3
50000 0.4
80000 0.53
200000 0.6
1000000 0.7
2000000 0.8
5000000 0.9
10000000 0.97
30000000 1
