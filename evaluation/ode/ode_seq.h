/* The ODE solver's sequential reference (not a component). */
#ifndef ODE_SEQ_H
#define ODE_SEQ_H

/* solve the grid x grid Brusselator from 0 to tend with the same method and
 * controller as the composed solver; y receives 2 grid^2 values */
void ode_reference(int grid, double tend, double *y, long *steps, long *rejected);

#endif
