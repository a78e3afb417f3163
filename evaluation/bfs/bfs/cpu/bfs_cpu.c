/* One BFS level: expand the frontier, then make the next one and count it. */
void bfs_cpu(const int *starts, const int *degrees, const int *edges, int *mask, int *updating,
	     int *visited, int *cost, int *next, int frontier, int n, int m)
{
	int i, k, count = 0;

	(void)frontier;
	(void)m;
	for (i = 0; i < n; i++)
		if (mask[i]) {
			mask[i] = 0;
			for (k = starts[i]; k < starts[i] + degrees[i]; k++)
				if (!visited[edges[k]]) {
					cost[edges[k]] = cost[i] + 1;
					updating[edges[k]] = 1;
				}
		}
	for (i = 0; i < n; i++)
		if (updating[i]) {
			mask[i] = visited[i] = 1;
			updating[i] = 0;
			count++;
		}
	*next = count;
}
