"""gpumemsim: a bit-exact simulator of GPU on-chip memory systems.

The functions are the native module's (``gpumemsim.gpumemsim``, built from Rust by maturin);
``gpumemsim.triton`` (imported on its own: ``import gpumemsim.triton``) runs Triton kernels.
"""

from .gpumemsim import *  # noqa: F401,F403 (the native module's names, by its __all__)
from .gpumemsim import __all__, __doc__, __version__  # noqa: F401
