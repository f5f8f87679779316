// printf from OpenCL: the printf buffer, with a constant table string, a literal string, a
// float, a padded hex and a long.
__constant char unit[] = "ms";

__kernel void report(__global const float *t, int n) {
    int i = get_global_id(0);
    if (i < n)
        printf("item %2d: %.3f %s (0x%04x, %ld, %s)\n", i, t[i], unit, i * 37, (long)i << 33, "ok");
}
