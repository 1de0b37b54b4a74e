"""Cases of ``paddle.vision.transforms``' geometric warps and OpenCV's other resize kernels, shared by
``tests/record_paddle_vision_warps.py`` (run with real Paddle and OpenCV) and ``tests/vision/test_transforms_warps.py``.

Transform and random cases have the form of ``vision_cases`` (``(name, kind, shape, dtype, seed, expr)``, the image
made by ``vision_cases.image``); random ones are drawn ``vision_cases.RANDOM_REPEATS`` times after seeding Python's
``random`` and numpy's generator with ``vision_cases.RANDOM_SEED``.
"""

from __future__ import annotations

N, T_, P = "numpy", "tensor", "pil"
U8, F32 = "uint8", "float32"
SP = "[[0, 0], [9, 0], [9, 8], [0, 8]]"
EP = "[[1, 2], [8, 0], [9, 7], [2, 8]]"

TRANSFORM_CASES = [
    # numpy images: OpenCV's resize kernels
    ("n_area_down", N, (17, 23, 3), U8, 400, "F.resize(img, (8, 11), 'area')"),
    ("n_area_fast2", N, (20, 16, 3), U8, 401, "F.resize(img, (10, 8), 'area')"),
    ("n_area_fast3", N, (12, 10, 3), U8, 402, "F.resize(img, (4, 4), 'area')"),
    ("n_area_up", N, (7, 9, 3), U8, 403, "F.resize(img, (15, 20), 'area')"),
    ("n_area_mixed", N, (9, 12, 1), U8, 404, "F.resize(img, (20, 5), 'area')"),
    ("n_area_float", N, (13, 11, 3), F32, 405, "F.resize(img, (5, 4), 'area')"),
    ("n_bicubic", N, (9, 11, 3), U8, 406, "F.resize(img, (14, 7), 'bicubic')"),
    ("n_bicubic_small", N, (3, 8, 3), U8, 407, "F.resize(img, (7, 12), 'bicubic')"),
    ("n_bicubic_gray", N, (10, 9), U8, 408, "F.resize(img, (6, 13), 'bicubic')"),
    ("n_bicubic_float", N, (8, 9, 3), F32, 409, "F.resize(img, (12, 5), 'bicubic')"),
    ("n_lanczos", N, (10, 8, 3), U8, 410, "F.resize(img, (13, 17), 'lanczos')"),
    ("n_lanczos_down", N, (19, 21, 4), U8, 411, "F.resize(img, (7, 9), 'lanczos')"),
    ("n_lanczos_float", N, (8, 7, 3), F32, 412, "F.resize(img, (11, 5), 'lanczos')"),
    ("n_resize_class", N, (12, 16, 3), U8, 413, "T.Resize(9, 'bicubic')(img)"),
    # numpy images: OpenCV's warps as Paddle calls them
    ("n_affine", N, (12, 12, 3), U8, 420, "F.affine(img, 30, (2, -1), 1.1, (5, 3))"),
    ("n_affine_bilinear", N, (10, 14, 3), U8, 421, "F.affine(img, -20, [1, 2], 0.9, 10, 'bilinear', fill=(10, 20, 30))"),
    ("n_affine_bicubic", N, (11, 11, 3), U8, 422, "F.affine(img, 45, (0, 0), 1.0, 0, 'bicubic', fill=5)"),
    ("n_affine_center", N, (10, 12, 3), U8, 423, "F.affine(img, 15, (1, 1), 1.2, [4], center=(3, 4))"),
    ("n_affine_float", N, (9, 8, 3), F32, 424, "F.affine(img, 70, (2, 0), 0.8, (0, 10), 'bilinear')"),
    ("n_affine_1ch", N, (9, 10, 1), U8, 425, "F.affine(img, 10, (0, 1), 1.0, 20, 'bilinear')"),
    ("n_rotate", N, (12, 10, 3), U8, 430, "F.rotate(img, 37)"),
    ("n_rotate_expand", N, (9, 13, 3), U8, 431, "F.rotate(img, -50, 'bilinear', expand=True, fill=[1, 2, 3])"),
    ("n_rotate_fill_scalar", N, (10, 10, 3), U8, 432, "F.rotate(img, 100, fill=9)"),
    ("n_rotate_center", N, (10, 11, 3), U8, 433, "F.rotate(img, 25, 'bilinear', center=[2, 3])"),
    ("n_rotate_bicubic", N, (11, 9, 3), U8, 434, "F.rotate(img, 12, 'bicubic')"),
    ("n_rotate_gray", N, (10, 12), U8, 435, "F.rotate(img, 15, 'bilinear', expand=True)"),
    ("n_rotate_float", N, (9, 9, 3), F32, 436, "F.rotate(img, 200, 'bicubic')"),
    ("n_rotate_4ch", N, (9, 9, 4), U8, 437, "F.rotate(img, 33, 'bilinear')"),
    ("n_rotate_90", N, (8, 6, 3), U8, 438, "F.rotate(img, 90, expand=True)"),
    ("n_perspective", N, (9, 10, 3), U8, 440, f"F.perspective(img, {SP}, {EP})"),
    ("n_perspective_bilinear", N, (9, 10, 3), U8, 441, f"F.perspective(img, {SP}, {EP}, 'bilinear', fill=(3, 4, 5))"),
    ("n_perspective_bicubic", N, (10, 11, 3), U8, 442, f"F.perspective(img, {SP}, {EP}, 'bicubic')"),
    ("n_perspective_float", N, (9, 10, 3), F32, 443, f"F.perspective(img, {SP}, {EP}, 'bilinear')"),
    ("n_perspective_1ch", N, (9, 10, 1), U8, 444, f"F.perspective(img, {SP}, {EP}, fill=7)"),
    # Tensor images: Paddle's grid_sample warps
    ("t_affine", T_, (6, 7, 3), F32, 450, "F.affine(img, 30, (1, 2), 1.2, (5, 3))"),
    ("t_affine_bilinear", T_, (6, 7, 3), F32, 451, "F.affine(img, -40, (0, 1), 0.9, 8, 'bilinear', fill=(1, 2, 3))"),
    ("t_affine_center", T_, (6, 8, 3), F32, 452, "F.affine(img, 30, (1, 2), 1.2, 5, center=(1, 2))"),
    ("t_affine_1ch", T_, (5, 6, 1), F32, 453, "F.affine(img, 25, (1, 0), 1.0, 0, 'bilinear', fill=None)"),
    ("t_affine_batch", T_, (5, 6, 3), F32, 454, "F.affine(img.unsqueeze(0), 30, (1, 2), 1.2, 5)"),
    ("t_rotate", T_, (6, 7, 3), F32, 455, "F.rotate(img, 30)"),
    ("t_rotate_expand", T_, (6, 7, 3), F32, 456, "F.rotate(img, 30, 'bilinear', expand=True)"),
    ("t_rotate_center", T_, (6, 7, 3), F32, 457, "F.rotate(img, -70, 'bilinear', center=(1, 2), fill=(1, 2, 3))"),
    ("t_rotate_1ch", T_, (6, 7, 1), F32, 458, "F.rotate(img, 30, fill=None)"),
    ("t_rotate_expand_big", T_, (9, 12, 3), F32, 459, "F.rotate(img, 123, 'nearest', expand=True, fill=5)"),
    ("t_perspective", T_, (9, 10, 3), F32, 460, f"F.perspective(img, {SP}, {EP})"),
    ("t_perspective_bilinear", T_, (9, 10, 3), F32, 461, f"F.perspective(img, {SP}, {EP}, 'bilinear', fill=3)"),
    ("t_perspective_batch", T_, (9, 10, 1), F32, 462, f"F.perspective(img.unsqueeze(0), {SP}, {EP}, 'bilinear')"),
    ("t_resize_area", T_, (9, 10, 3), F32, 463, "F.resize(img, (4, 6), 'area')"),
    # PIL images: Pillow's transforms
    ("p_affine", P, (9, 10, 3), U8, 470, "F.affine(img, 30, (1, 2), 1.2, (5, 3), fill=200)"),
    ("p_affine_bilinear", P, (9, 10, 3), U8, 471, "F.affine(img, -15, (0, 1), 0.9, 0, 'bilinear', center=(2, 3))"),
    ("p_rotate", P, (9, 10, 3), U8, 472, "F.rotate(img, 30, fill=(200, 100, 50))"),
    ("p_rotate_expand", P, (9, 10, 3), U8, 473, "F.rotate(img, 45, 'bicubic', expand=True, fill=[1, 2, 3])"),
    ("p_perspective", P, (9, 10, 3), U8, 474, f"F.perspective(img, {SP}, {EP}, 'bilinear')"),
    ("p_resize_lanczos", P, (9, 10, 3), U8, 475, "F.resize(img, (5, 13), 'lanczos')"),
]

RANDOM_CASES = [
    ("r_affine", N, (12, 10, 3), U8, 480, "T.RandomAffine(30, (0.1, 0.2), (0.8, 1.2), (5, 10), fill=3)(img)"),
    ("r_affine_shear4", N, (10, 10, 3), U8, 481, "T.RandomAffine((-10, 20), shear=(-5, 5, 0, 8), interpolation='bilinear')(img)"),
    ("r_t_affine", T_, (8, 9, 3), F32, 482, "T.RandomAffine(20, (0.2, 0.1), interpolation='bilinear')(img)"),
    ("r_rotation", N, (10, 11, 3), U8, 483, "T.RandomRotation(45)(img)"),
    ("r_t_rotation", T_, (7, 8, 3), F32, 484, "T.RandomRotation((10, 60), 'bilinear', expand=True)(img)"),
    ("r_p_rotation", P, (9, 10, 3), U8, 485, "T.RandomRotation(20, fill=(9, 9, 9))(img)"),
    ("r_perspective", N, (12, 13, 3), U8, 486, "T.RandomPerspective(0.9, 0.6)(img)"),
    ("r_t_perspective", T_, (9, 10, 3), F32, 487, "T.RandomPerspective(1.0, 0.4, 'bilinear', fill=2)(img)"),
]

# gradients through Tensor warps: d sum(out * w) / d img, with w = cos(arange(out.size))
GRAD_CASES = [
    ("g_affine", (6, 7, 3), 490, "F.affine(img, 30, (1, 0), 1.1, 5, 'bilinear', fill=(0.1, 0.2, 0.3))"),
    ("g_rotate", (6, 7, 3), 491, "F.rotate(img, 40, 'bilinear', expand=True)"),
    ("g_perspective", (9, 10, 3), 492, f"F.perspective(img, {SP}, {EP}, 'bilinear')"),
]

# misuse: what Paddle raises (type name), or that it accepts it
ERROR_CASES = [
    ("affine_translate", "F.affine(paddle.zeros([3, 4, 4]), 30, 1, 1.0, 0)"),
    ("affine_translate_len", "F.affine(paddle.zeros([3, 4, 4]), 30, (1, 2, 3), 1.0, 0)"),
    ("affine_scale", "F.affine(paddle.zeros([3, 4, 4]), 30, (1, 2), 0, 0)"),
    ("affine_shear_len", "F.affine(paddle.zeros([3, 4, 4]), 30, (1, 2), 1.0, (1, 2, 3))"),
    ("affine_angle", "F.affine(paddle.zeros([3, 4, 4]), '30', (1, 2), 1.0, 0)"),
    ("affine_interp_type", "F.affine(paddle.zeros([3, 4, 4]), 30, (1, 2), 1.0, 0, interpolation=1)"),
    ("affine_center_type", "F.affine(paddle.zeros([3, 4, 4]), 30, (1, 2), 1.0, 0, center=3)"),
    ("t_rotate_bicubic", "F.rotate(paddle.zeros([3, 4, 4]), 10, 'bicubic')"),
    ("t_affine_uint8", "F.affine(paddle.zeros([3, 4, 4], 'uint8'), 10, (0, 0), 1.0, 0)"),
    ("t_affine_1ch_int_fill", "F.affine(paddle.zeros([1, 4, 4]), 10, (0, 0), 1.0, 0)"),
    ("t_rotate_batch", "F.rotate(paddle.zeros([1, 3, 4, 4]), 10)"),
    ("n_warp_bad_interp", "F.rotate(np.zeros((4, 4, 3), np.uint8), 10, 'cubic')"),
    ("n_resize_bad_interp", "F.resize(np.zeros((4, 4, 3), np.uint8), (2, 2), 'cubic')"),
    ("t_resize_lanczos", "F.resize(paddle.zeros([3, 4, 4]), (2, 2), 'lanczos')"),
    ("r_affine_degrees", "T.RandomAffine(-5)"),
    ("r_affine_translate_len", "T.RandomAffine(5, translate=(0.1,))"),
    ("r_affine_translate_range", "T.RandomAffine(5, translate=(2, 0))"),
    ("r_affine_scale", "T.RandomAffine(5, scale=(0, 1))"),
    ("r_affine_shear", "T.RandomAffine(5, shear=(1, 2, 3))"),
    ("r_affine_interp", "T.RandomAffine(5, interpolation='area')"),
    ("r_affine_fill", "T.RandomAffine(5, fill=object())"),
    ("r_rotation_degrees", "T.RandomRotation(-3)"),
    ("r_rotation_len", "T.RandomRotation((1, 2, 3))"),
    ("r_perspective_prob", "T.RandomPerspective(prob=2)"),
    ("r_perspective_scale", "T.RandomPerspective(distortion_scale=2)"),
]
