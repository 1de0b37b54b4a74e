"""The Paddle release whose Python API this package implements (layer L0).

``paddle.utils.require_version`` and ``paddle.utils.deprecated`` compare versions with it, not with this package's
own version: Paddle code that calls ``require_version("2.4")`` asks for a Paddle API level.
"""

PADDLE_API_VERSION = "3.3.1"


def parts(version: str) -> list[int]:
    """The numbers of a dotted version, padded with zeros to four (``"3.3"`` -> ``[3, 3, 0, 0]``)."""
    nums = [int(p) for p in version.split(".") if p.isdigit()]
    return nums + [0] * (4 - len(nums))
