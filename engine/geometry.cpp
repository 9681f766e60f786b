#include "geometry.h"

namespace halma::engine {

Cell rotate_clockwise(Cell c, int sixths) {
    // Cube coordinates around the centre hole (row 8, x 0): a sixth of a turn is a cyclic
    // permutation with a sign change.
    int r = kGeometry.row[c] - 8, x = kGeometry.x[c];
    int q = (x - r) / 2; // axial column
    int cx = q, cz = r, cy = -cx - cz;
    int turns = ((sixths % 6) + 6) % 6;
    for (int i = 0; i < turns; ++i) {
        int nx = -cz, ny = -cx, nz = -cy; // 60 degrees clockwise on screen (rows grow downwards)
        cx = nx, cy = ny, cz = nz;
    }
    int nr = cz, nq = cx;
    return cell_at(nr + 8, 2 * nq + nr);
}

} // namespace halma::engine
