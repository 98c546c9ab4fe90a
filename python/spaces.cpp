// quax.Box, quax.Discrete and quax.MultiDiscrete: the spaces a VectorEnv describes itself with,
// under the attribute and method names of Gymnasium's spaces (shape, dtype, low, high, n,
// start, nvec, sample, contains, seed), so that code written against Gymnasium's spaces reads
// them. The module cannot depend on Gymnasium (not a Debian package), so these are its own,
// duck-typed; `gymnasium.spaces.Box(s.low, s.high, s.shape, s.dtype)` converts where needed.
// They are plain numpy and gain nothing from C++, so they are written in Python and run once
// when the module is imported.
#include <pybind11/eval.h>

#include "python/bindings.h"

namespace quax::python {
namespace {

constexpr const char* kSpaces = R"PY(
import numpy as _np


class Box:
    """Gymnasium's Box: arrays of `shape` and `dtype` with low <= x <= high elementwise.

    low and high are read-only numpy arrays of `shape` (broadcast views: a batched space of
    thousands of boards costs no memory)."""

    def __init__(self, low, high, shape, dtype=_np.float32, seed=None):
        self.dtype = _np.dtype(dtype)
        self.shape = tuple(int(s) for s in shape)
        self.low = _np.broadcast_to(_np.asarray(low, dtype=self.dtype), self.shape)
        self.high = _np.broadcast_to(_np.asarray(high, dtype=self.dtype), self.shape)
        self.bounded_below = _np.broadcast_to(_np.isfinite(_np.asarray(low, dtype=self.dtype)), self.shape)
        self.bounded_above = _np.broadcast_to(_np.isfinite(_np.asarray(high, dtype=self.dtype)), self.shape)
        self.seed(seed)

    def seed(self, seed=None):
        self.np_random = _np.random.default_rng(seed)
        return [seed]

    def is_bounded(self, manner="both"):
        below, above = bool(self.bounded_below.all()), bool(self.bounded_above.all())
        if manner not in ("both", "below", "above"):
            raise ValueError(f"manner is 'both', 'below' or 'above', not {manner!r}")
        return {"both": below and above, "below": below, "above": above}[manner]

    def sample(self, mask=None):
        if mask is not None:
            raise ValueError("Box.sample takes no mask")
        return self.np_random.uniform(self.low, self.high, self.shape).astype(self.dtype)

    def contains(self, x):
        x = _np.asarray(x)
        return bool(x.shape == self.shape and _np.can_cast(x.dtype, self.dtype)
                    and (x >= self.low).all() and (x <= self.high).all())

    __contains__ = contains

    def __eq__(self, other):
        return (isinstance(other, Box) and self.shape == other.shape and self.dtype == other.dtype
                and _np.array_equal(self.low, other.low) and _np.array_equal(self.high, other.high))

    def __repr__(self):
        low, high = self.low.flat[0] if self.low.size else 0, self.high.flat[0] if self.high.size else 0
        return f"Box({low!s}, {high!s}, {self.shape}, {self.dtype})"


class Discrete:
    """Gymnasium's Discrete: the integers start, ..., start + n - 1."""

    def __init__(self, n, start=0, seed=None):
        self.n, self.start = _np.int64(n), _np.int64(start)
        self.shape, self.dtype = (), _np.dtype(_np.int64)
        self.seed(seed)

    def seed(self, seed=None):
        self.np_random = _np.random.default_rng(seed)
        return [seed]

    def sample(self, mask=None):
        """A uniform draw; with a mask (n entries, nonzero where allowed, such as one row of
        info["action_mask"]) among the allowed values only, `start` when none is."""
        if mask is None:
            return _np.int64(self.start + self.np_random.integers(self.n))
        mask = _np.asarray(mask)
        if mask.shape != (self.n,):
            raise ValueError(f"mask: shape {mask.shape}, expected ({self.n},)")
        allowed = _np.flatnonzero(mask)
        return _np.int64(self.start + (self.np_random.choice(allowed) if allowed.size else 0))

    def contains(self, x):
        if isinstance(x, (bool, _np.bool_)) or not isinstance(x, (int, _np.integer, _np.ndarray)):
            return False
        if isinstance(x, _np.ndarray) and (x.shape != () or x.dtype.kind not in "iu"):
            return False
        return bool(self.start <= int(x) < self.start + self.n)

    __contains__ = contains

    def __eq__(self, other):
        return isinstance(other, Discrete) and self.n == other.n and self.start == other.start

    def __repr__(self):
        return f"Discrete({self.n})" if self.start == 0 else f"Discrete({self.n}, start={self.start})"


class MultiDiscrete:
    """Gymnasium's MultiDiscrete: arrays of nvec's shape, element i in 0, ..., nvec[i] - 1."""

    def __init__(self, nvec, dtype=_np.int64, seed=None):
        self.dtype = _np.dtype(dtype)
        self.nvec = _np.array(nvec, dtype=self.dtype)
        self.start = _np.zeros_like(self.nvec)
        self.shape = self.nvec.shape
        self.seed(seed)

    def seed(self, seed=None):
        self.np_random = _np.random.default_rng(seed)
        return [seed]

    def sample(self, mask=None):
        """Uniform draws; with a mask (one row per element, nonzero where allowed: a tuple of
        arrays as Gymnasium's, or a 2-D array such as info["action_mask"]) among the allowed
        values only, 0 where none is."""
        if mask is None:
            return (self.np_random.random(self.shape) * self.nvec).astype(self.dtype)
        if len(mask) != self.nvec.size:
            raise ValueError(f"mask: {len(mask)} rows for {self.nvec.size} elements")
        out = _np.zeros(self.nvec.size, dtype=self.dtype)
        for i, (n, row) in enumerate(zip(self.nvec.flat, mask)):
            row = _np.asarray(row)
            if row.shape != (n,):
                raise ValueError(f"mask[{i}]: shape {row.shape}, expected ({n},)")
            allowed = _np.flatnonzero(row)
            out[i] = self.np_random.choice(allowed) if allowed.size else 0
        return out.reshape(self.shape)

    def contains(self, x):
        x = _np.asarray(x)
        return bool(x.shape == self.shape and x.dtype.kind in "iu" and (x >= 0).all() and (x < self.nvec).all())

    __contains__ = contains

    def __eq__(self, other):
        return isinstance(other, MultiDiscrete) and _np.array_equal(self.nvec, other.nvec)

    def __repr__(self):
        return f"MultiDiscrete({self.nvec})"
)PY";

}  // namespace

void bind_spaces(py::module_& m) {
  // Run in the module's own namespace: the classes become quax.Box etc. (their __module__ is
  // "quax", so help(quax) lists them).
  py::exec(py::str(kSpaces), m.attr("__dict__"));
}

}  // namespace quax::python
