/* Inline helpers in a subdirectory header: with DWARF 5 the line table
   names this file through a relative directory entry ("sub"), which a
   symbolizer must join to the compilation directory. */
#ifndef FIXTURE_HELPER_H
#define FIXTURE_HELPER_H

static inline int scale(int v, int k)
{
	return v * k + (v >> 2);
}

static inline int clamp_add(int a, int b)
{
	int s = scale(a, 3) + b;
	if (s > 1000)
		s = 1000;
	return s;
}

#endif
