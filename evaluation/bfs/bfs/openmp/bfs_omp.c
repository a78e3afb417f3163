/* One BFS level, both phases shared by the OpenMP team.  Nodes of the
 * frontier that share a neighbour write it the same cost. */
void bfs_omp(const int *starts, const int *degrees, const int *edges, int *mask, int *updating,
	     int *visited, int *cost, int *next, int frontier, int n, int m)
{
	int i, count = 0;

	(void)frontier;
	(void)m;
#pragma omp parallel for schedule(static)
	for (i = 0; i < n; i++)
		if (mask[i]) {
			int k;

			mask[i] = 0;
			for (k = starts[i]; k < starts[i] + degrees[i]; k++)
				if (!visited[edges[k]]) {
					cost[edges[k]] = cost[i] + 1;
					updating[edges[k]] = 1;
				}
		}
#pragma omp parallel for schedule(static) reduction(+ : count)
	for (i = 0; i < n; i++)
		if (updating[i]) {
			mask[i] = visited[i] = 1;
			updating[i] = 0;
			count++;
		}
	*next = count;
}
