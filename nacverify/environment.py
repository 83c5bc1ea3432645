"""What ran: tool and library versions, platform and device, for report attributes."""

from __future__ import annotations

import importlib.metadata
import platform
import sys

__all__ = ["library_versions", "platform_description", "device_description"]

_LIBRARIES = ("nacverify", "jax", "jaxlib", "diffrax", "equinox", "sympy", "numpy", "scipy", "h5py", "typer", "rich")


def library_versions() -> dict[str, str]:
    """Installed versions of the libraries nacverify's numbers depend on."""
    out: dict[str, str] = {"python": sys.version.split()[0]}
    for name in _LIBRARIES:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def platform_description() -> str:
    return f"{platform.system()} {platform.release()} {platform.machine()}; {platform.processor() or 'cpu'}"


def device_description() -> str:
    """The JAX default backend and its devices, e.g. 'cpu: TFRT_CPU_0'."""
    import jax

    devices = jax.devices()
    kinds = ", ".join(sorted({getattr(d, "device_kind", str(d)) for d in devices}))
    return f"{jax.default_backend()}: {len(devices)} x {kinds}"
