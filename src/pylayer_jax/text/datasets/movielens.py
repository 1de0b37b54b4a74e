"""Movielens: the MovieLens 1M ratings from the local ml-1m zip archive."""

from __future__ import annotations

import re
import zipfile
from typing import Any

import numpy as np

from ...io import Dataset
from ._common import check_mode, local_file

__all__ = ["Movielens", "MovieInfo", "UserInfo"]

age_table = [1, 18, 25, 35, 45, 50, 56]


class MovieInfo:
    """A movie: id, categories and title words."""

    def __init__(self, index: str, categories: list[str], title: str) -> None:
        self.index = int(index)
        self.categories = categories
        self.title = title

    def value(self, categories_dict: dict[str, int], movie_title_dict: dict[str, int]) -> list[list[int]]:
        """[[id], category ids, title word ids (lower-cased words)]."""
        return [[self.index], [categories_dict[c] for c in self.categories],
                [movie_title_dict[w.lower()] for w in self.title.split()]]

    def __str__(self) -> str:
        return f"<MovieInfo id({self.index}), title({self.title}), categories({self.categories})>"

    __repr__ = __str__


class UserInfo:
    """A user: id, gender, age bucket (an index into ``age_table``) and job id."""

    def __init__(self, index: str, gender: str, age: str, job_id: str) -> None:
        self.index = int(index)
        self.is_male = gender == "M"
        self.age = age_table.index(int(age))
        self.job_id = int(job_id)

    def value(self) -> list[list[int]]:
        """[[id], [0 for male, 1 for female], [age bucket], [job id]]."""
        return [[self.index], [0 if self.is_male else 1], [self.age], [self.job_id]]

    def __str__(self) -> str:
        return (f"<UserInfo id({self.index}), gender({'M' if self.is_male else 'F'}), age({age_table[self.age]}), "
                f"job({self.job_id})>")

    __repr__ = __str__


class Movielens(Dataset):
    """MovieLens 1M from the local ``data_file`` (ml-1m.zip with ml-1m/movies.dat, users.dat and ratings.dat).

    A rating line goes to 'test' when ``numpy.random.random() < test_ratio`` after ``numpy.random.seed(rand_seed)``
    (numpy's global generator, one draw per line, as Paddle splits), else to 'train'. An item is 8 int/float
    arrays: [user id], [gender], [age bucket], [job], [movie id], category ids, title word ids, [rating * 2 - 5].

    The category and title-word ids number the distinct categories and lower-cased title words in sorted order.
    (Paddle numbers them in the iteration order of a Python set, which changes with the interpreter's string hash
    seed from run to run; the dictionaries ``categories_dict`` and ``movie_title_dict`` map them back.)
    """

    def __init__(self, data_file: str | None = None, mode: str = "train", test_ratio: float = 0.1,
                 rand_seed: int = 0, download: bool = True) -> None:
        api = "paddle.text.datasets.Movielens"
        self.mode = check_mode(api, mode, ("train", "test"))
        self.data_file = local_file(data_file, "data_file", api, download, "MovieLens archive ml-1m.zip")
        self.test_ratio = test_ratio
        self.rand_seed = rand_seed
        np.random.seed(rand_seed)
        self._load_meta_info()
        self._load_data()

    def _load_meta_info(self) -> None:
        title_re = re.compile(r"^(.*)\((\d+)\)$")
        self.movie_info: dict[int, MovieInfo] = {}
        self.user_info: dict[int, UserInfo] = {}
        words: set[str] = set()
        categories: set[str] = set()
        with zipfile.ZipFile(self.data_file) as z:
            with z.open("ml-1m/movies.dat") as f:
                for line in f:
                    movie_id, title, cats = line.decode("latin").strip().split("::")
                    cats = cats.split("|")
                    categories.update(cats)
                    m = title_re.match(title)
                    if m is None:
                        raise ValueError(f"paddle.text.datasets.Movielens: the title {title!r} of movie {movie_id} has "
                                         "no '(year)' at its end.")
                    title = m.group(1)
                    self.movie_info[int(movie_id)] = MovieInfo(movie_id, cats, title)
                    words.update(w.lower() for w in title.split())
            with z.open("ml-1m/users.dat") as f:
                for line in f:
                    uid, gender, age, job, _ = line.decode("latin").strip().split("::")
                    self.user_info[int(uid)] = UserInfo(uid, gender, age, job)
        self.movie_title_dict = {w: i for i, w in enumerate(sorted(words))}
        self.categories_dict = {c: i for i, c in enumerate(sorted(categories))}

    def _load_data(self) -> None:
        self.data = []
        is_test = self.mode == "test"
        with zipfile.ZipFile(self.data_file) as z, z.open("ml-1m/ratings.dat") as f:
            for line in f:
                line = line.decode("latin")
                if (np.random.random() < self.test_ratio) == is_test:
                    uid, mov_id, rating, _ = line.strip().split("::")
                    usr, mov = self.user_info[int(uid)], self.movie_info[int(mov_id)]
                    self.data.append(usr.value() + mov.value(self.categories_dict, self.movie_title_dict)
                                     + [[float(rating) * 2 - 5.0]])

    def __getitem__(self, idx: int) -> tuple[Any, ...]:
        return tuple(np.array(d) for d in self.data[idx])

    def __len__(self) -> int:
        return len(self.data)
