"""Import an optional dependency, or explain which extra installs it.

Features that need OpenCV, MoviePy, PyTorch or JAX import them only when used, so ``import reference`` never
needs them; a missing one raises Gymnasium's :class:`~reference.error.DependencyNotInstalled` naming the extra.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from reference.error import DependencyNotInstalled

__all__ = ["EXTRAS", "import_optional", "is_installed"]

EXTRAS: dict[str, str] = {
    "cv2": "other",
    "moviepy": "other",
    "matplotlib": "other",
    "torch": "torch",
    "jax": "jax",
    "array_api_compat": "array-api",
}
"""The ``gymspec`` extra that installs each optional top-level module."""

_PACKAGES = {"cv2": "opencv-python", "array_api_compat": "array-api-compat"}


def is_installed(module: str) -> bool:
    """Whether ``module`` can be imported (imports it; optional modules are imported once anyway).

    Args:
        module: A dotted module name.

    Returns:
        ``True`` if the import succeeds.
    """
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def import_optional(module: str, feature: str) -> ModuleType:
    """Import ``module`` for ``feature``, or raise with the command that installs it.

    Args:
        module: A dotted module name; its top-level package decides the extra.
        feature: What needs it, for the message (e.g. ``"ResizeObservation"``).

    Returns:
        The module.

    Raises:
        DependencyNotInstalled: If the import fails.
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        top = module.split(".", 1)[0]
        package = _PACKAGES.get(top, top)
        extra = EXTRAS.get(top)
        how = f'`pip install "gymspec[{extra}]"` (or `pip install {package}`)' if extra else f"`pip install {package}`"
        raise DependencyNotInstalled(
            f"{feature} needs {package} ({module}), which is not installed (got {exc!r}); install it with {how}"
        ) from exc
