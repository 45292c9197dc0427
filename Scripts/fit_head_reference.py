#!/usr/bin/env python3
"""Measures the 3-D face that head pose reads pitch against (head_pose.cpp's `measured_face`).

Seven real faces that no test uses are rendered turned by known angles (Scripts/render_turned_faces.py), frameprobe
fits dlib's 68 landmarks on every render, and the 3-D points that best explain those fits under the known rotations
are solved for (least squares over the points and each render's position; pinhole camera, focal length = image
width, aimed at the face, as head_pose.cpp assumes). The jaw's two ends on each side (0, 1, 15, 16) are left out:
they sit on the head's outline and slide round it as the head turns. The result is made mirror-symmetric, scaled
to an outer-eye-corner distance of 90 mm with the nose tip at the origin, and tilted so that the eyes-open frames
of real-frames/ (people looking at the camera) read pitch 0 on average: the renders' own zero (eye-to-mouth line
square to the camera in MediaPipe's depth of one photo) differs from face to face.

Runs in the benchmark's MediaPipe venv with scipy:
  .build/bench/venv-mediapipe/bin/pip install scipy
  .build/bench/venv-mediapipe/bin/python Scripts/fit_head_reference.py .build/debug/frameprobe
Prints the table for head_pose.cpp.
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np
from scipy.optimize import least_squares

sys.path.insert(0, str(Path(__file__).resolve().parent))
from render_turned_faces import rotation  # noqa: E402  (the renders' own angles)

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("FRAMEPROBE_TEST_DATA", ROOT.parent / "shared" / "devdata"))
SOURCES = [DATA / "real-frames" / f"{name}.jpg" for name in (
    "driving_d10-200-eyes-open", "driving_d10-88-eyes-open-nosmile", "driving_d6-600-eyes-open",
    "driving_d6-36-eyes-open-nosmile", "driving_d11-200-eyes-open-nosmile", "driving_d3-353-eyes-open-nosmile")]
SOURCES.append(Path("/usr/share/doc/libdlib19.1/examples/faces/Tom_Cruise_avp_2014_4.jpg"))
CONTOURS = ["jaw", "rightEyebrow", "leftEyebrow", "noseBridge", "noseBottom", "rightEye", "leftEye", "outerLips", "innerLips"]
USED = [i for i in range(68) if i not in (0, 1, 15, 16)]
# The landmark each one is the mirror image of (dlib's 68-point layout).
MIRROR = (list(range(16, -1, -1)) + list(range(26, 16, -1)) + [27, 28, 29, 30] + [35, 34, 33, 32, 31]
          + [45, 44, 43, 42, 47, 46, 39, 38, 37, 36, 41, 40] + [54, 53, 52, 51, 50, 49, 48, 59, 58, 57, 56, 55]
          + [64, 63, 62, 61, 60, 67, 66, 65])


def landmarks(frameprobe, image):
    """The primary face's 68 points (None without landmarks) and the image width."""
    run = subprocess.run([frameprobe, "analyze", "--face-contours", str(image)], capture_output=True, text=True, check=True)
    width = cv2.imread(str(image)).shape[1]
    for line in run.stdout.splitlines():
        event = json.loads(line)
        if event.get("event") == "faceDetected" and "contours" in event:
            return np.array([p for name in CONTOURS for p in event["contours"][name]], float), width
    return None, width


def project(model, rot, shift, points, width):
    centre = (points[36] + points[45] + points[48] + points[54]) / 4
    placed = model @ rot.T + shift
    return centre + width * placed[:, :2] / placed[:, 2:]


def fit(views):
    """3-D points for USED explaining every view (points, width, rotation); starts from the frontal views' layout."""
    frontal = [p for p, _, r in views if np.allclose(r, np.eye(3))]
    layout = np.mean([(p - p[30]) * 90 / np.linalg.norm(p[45] - p[36]) for p in frontal], axis=0)
    start = np.column_stack([layout[USED], np.full(len(USED), 40.0)])
    start[USED.index(30)] = 0
    n = len(USED)

    def residuals(x):
        model = x[:3 * n].reshape(n, 3)
        out = [(project(model, r, x[3 * n + 3 * j:3 * n + 3 * j + 3], p, w) - p[USED]).ravel() for j, (p, w, r) in enumerate(views)]
        out.append(10 * model[USED.index(30)])
        out.append([10 * (np.linalg.norm(model[USED.index(45)] - model[USED.index(36)]) - 90)])
        return np.concatenate(out)

    x0 = np.concatenate([start.ravel()] + [[0, 0, 600]] * len(views))
    return least_squares(residuals, x0).x[:3 * n].reshape(n, 3)


def symmetric(model):
    index = {landmark: row for row, landmark in enumerate(USED)}
    out = model.copy()
    for landmark, row in index.items():
        twin = model[index[MIRROR[landmark]]]
        out[row] = [(model[row, 0] - twin[0]) / 2, (model[row, 1] + twin[1]) / 2, (model[row, 2] + twin[2]) / 2]
    return out


def pitch(model, points, width):
    # Pitch as the table in head_pose.cpp was fitted: the Z·Y·X reading. head_pose.cpp now reads the X·Y·Z composition
    # (AFLW2000-3D's); on the nine near-frontal frames that set the tilt the two differ by 0.1° on average (0.6° at
    # most, measured), so the table was kept as fitted.
    centre = (points[36] + points[45] + points[48] + points[54]) / 4
    camera = np.array([[width, 0, centre[0]], [0, width, centre[1]], [0, 0, 1]], float)
    ok, vector, _ = cv2.solvePnP(model, points[USED], camera, None, np.zeros((3, 1)), np.array([[0.0], [0.0], [600.0]]),
                                 True, cv2.SOLVEPNP_ITERATIVE)
    r, _ = cv2.Rodrigues(vector)
    return -math.degrees(math.atan2(r[2, 1], r[2, 2]))


def tilted(model, degrees):
    a = math.radians(degrees)
    about_x = np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])
    return model @ about_x.T


def main():
    frameprobe = sys.argv[1]
    views = []
    with tempfile.TemporaryDirectory() as folder:
        for source in SOURCES:
            subprocess.run([sys.executable, str(ROOT / "Scripts" / "render_turned_faces.py"), str(source), folder, source.stem.split("-eyes")[0]],
                           check=True, capture_output=True)
        for render in sorted(Path(folder).glob("*.png")):
            angles = re.search(r"_p(-?\d+)_y(-?\d+)_r(-?\d+)\.png$", render.name).groups()
            points, width = landmarks(frameprobe, render)
            if points is not None:
                views.append((points, width, rotation(*map(float, angles))))
    model = symmetric(fit(views))
    gazes = [landmarks(frameprobe, f) for f in sorted((DATA / "real-frames").glob("*eyes-open*.jpg"))]
    tilt = 0.0
    for _ in range(4):  # the tilt that brings the mean reading to 0 (a few steps: the solve is not linear in it)
        tilt -= np.mean([pitch(tilted(model, tilt), p, w) for p, w in gazes if p is not None])
    model = tilted(model, tilt)
    print(f"// {len(views)} renders with landmarks; tilt {tilt:+.1f}°", file=sys.stderr)
    rows = []
    for row, landmark in enumerate(USED):
        if MIRROR[landmark] < landmark and MIRROR[landmark] in USED:
            continue
        x, y, z = model[row]
        x = 0.0 if MIRROR[landmark] == landmark else x
        x, y, z = (round(v, 1) + 0.0 for v in (x, y, z))  # no "-0.0"
        rows.append(f"{{{landmark}, {{{x:.1f}, {y:.1f}, {z:.1f}}}}}")
    for start in range(0, len(rows), 4):
        print("    " + ", ".join(rows[start:start + 4]) + ",")


if __name__ == "__main__":
    main()
