#!/usr/bin/env python3
"""Renders a real frontal face photo turned by known head rotations (pitch, yaw, roll in ML Kit's conventions).

Test data for head pose and for finding turned faces, where no photo with a measured pose may be shipped. The face's
3-D shape comes from MediaPipe FaceMesh (468 points with relative depth) on the photo; the points, with rings
beyond the face oval that curve back like a skull, are triangulated, texture-mapped from the photo and drawn
turned, far triangles first, over the unchanged background. The face is first brought to a defined frontal pose:
x along the line between the outer eye corners, y along the line from the eyes' midpoint to the mouth corners'
midpoint (made perpendicular to x), so that an applied rotation is the face's pose by that definition.

Runs in the benchmark's MediaPipe venv (Scripts/bench makes it):
  .build/bench/venv-mediapipe/bin/python Scripts/render_turned_faces.py PHOTO OUT_DIR NAME
Writes OUT_DIR/NAME_p{X}_y{Y}_r{Z}.png for each pose of POSES and prints one TSV row per image.
"""
import math
import sys
from pathlib import Path

import cv2
import mediapipe as mp
import numpy as np
from scipy.spatial import Delaunay

# (pitch X, yaw Y, roll Z) in degrees; X > 0 looks up, Y > 0 turns toward the image's right, Z > 0 counter-clockwise.
POSES = ([(0, y, 0) for y in range(-70, 71, 10)]
         + [(x, 0, 0) for x in (-30, -20, -15, -10, 10, 20, 30)]
         + [(x, y, 0) for x in (-15, 15) for y in (-30, 30)])

RIGHT_EYE_OUTER, LEFT_EYE_OUTER, MOUTH_RIGHT, MOUTH_LEFT = 33, 263, 61, 291


def face_points(image):
    """MediaPipe's 468 points in pixels: x, y, and depth z (same scale as x; negative is nearer the camera)."""
    with mp.solutions.face_mesh.FaceMesh(static_image_mode=True, max_num_faces=1) as mesh:
        found = mesh.process(cv2.cvtColor(image, cv2.COLOR_BGR2RGB))
    if not found.multi_face_landmarks:
        sys.exit("no face found")
    h, w = image.shape[:2]
    return np.array([[p.x * w, p.y * h, p.z * w] for p in found.multi_face_landmarks[0].landmark])


def face_frame(points):
    """The face's own axes as the columns of a rotation (identity for a frontal face)."""
    x = points[LEFT_EYE_OUTER] - points[RIGHT_EYE_OUTER]
    x /= np.linalg.norm(x)
    down = (points[MOUTH_LEFT] + points[MOUTH_RIGHT]) / 2 - (points[LEFT_EYE_OUTER] + points[RIGHT_EYE_OUTER]) / 2
    y = down - x * (down @ x)
    y /= np.linalg.norm(y)
    return np.column_stack([x, y, np.cross(x, y)])


def rotation(pitch, yaw, roll):
    """R = Rz(γ)·Ry(β)·Rx(α) in camera axes (x right, y down, z away) with α, β, γ = −X, −Y, −Z (ML Kit's signs)."""
    a, b, g = (-math.radians(v) for v in (pitch, yaw, roll))
    rx = np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])
    ry = np.array([[math.cos(b), 0, math.sin(b)], [0, 1, 0], [-math.sin(b), 0, math.cos(b)]])
    rz = np.array([[math.cos(g), -math.sin(g), 0], [math.sin(g), math.cos(g), 0], [0, 0, 1]])
    return rz @ ry @ rx


def head_model(points, shape):
    """Face points plus rings beyond the oval (hair, ears: curving away) and fixed background points."""
    h, w = shape[:2]
    centre = points[:, :2].mean(axis=0)
    width = np.ptp(points[:, 0])
    hull = points[cv2.convexHull(points[:, :2].astype(np.float32), returnPoints=False).ravel()]
    moving = [points]
    for spread, depth in ((1.2, 0.25), (1.45, 0.6)):
        ring = hull.copy()
        ring[:, :2] = centre + spread * (hull[:, :2] - centre)
        ring[:, 2] = hull[:, 2] + depth * width
        moving.append(ring)
    moving = np.vstack(moving)
    outer = centre + 1.9 * (hull[:, :2] - centre)
    border = np.array([[x, y] for x in np.linspace(0, w - 1, 9) for y in (0, h - 1)]
                      + [[x, y] for y in np.linspace(0, h - 1, 9)[1:-1] for x in (0, w - 1)])
    fixed = np.vstack([outer, border])
    fixed[:, 0] = fixed[:, 0].clip(0, w - 1)
    fixed[:, 1] = fixed[:, 1].clip(0, h - 1)
    return moving, fixed, centre, width


def render(image, points, pose):
    """The photo with its face turned to `pose`, seen by a pinhole camera whose focal length is the image width
    (a webcam's or phone's front camera, about 53° across), the face's middle at that distance, looking at the
    face: the pose is the face's as it looks in the picture, wherever it is in the frame (frameprobe's convention;
    the camera's axis meets the middle of the eye and mouth corners)."""
    moving, fixed, centre, width = head_model(points, image.shape)
    w = image.shape[1]
    optical_centre = points[[RIGHT_EYE_OUTER, LEFT_EYE_OUTER, MOUTH_RIGHT, MOUTH_LEFT], :2].mean(axis=0)
    focal = float(w)
    # The photo's points as 3-D points (x, y scaled by their depth) so that the unturned render is the photo.
    distance = focal - points[:, 2].mean()
    solid = moving.copy()
    solid[:, :2] = optical_centre + (moving[:, :2] - optical_centre) * (distance + moving[:, 2:]) / focal
    pivot = np.array([*(optical_centre + (centre - optical_centre) * (distance + points[:, 2].mean()) / focal),
                      points[:, 2].mean() + 0.6 * width])
    turn = rotation(*pose) @ face_frame(points).T
    turned = (solid - pivot) @ turn.T + pivot
    projected = optical_centre + (turned[:, :2] - optical_centre) * focal / (distance + turned[:, 2:])
    source = np.vstack([moving[:, :2], fixed])
    target = np.vstack([projected, fixed])
    depth = np.concatenate([turned[:, 2], np.full(len(fixed), 1e9)])
    out = image.copy()
    triangles = Delaunay(source).simplices
    for tri in sorted(triangles, key=lambda t: -depth[t].mean()):
        if (depth[tri] >= 1e9).all():
            continue
        src, dst = source[tri].astype(np.float32), target[tri].astype(np.float32)
        if np.cross(src[1] - src[0], src[2] - src[0]) * np.cross(dst[1] - dst[0], dst[2] - dst[0]) <= 0:
            continue  # turned away from the camera
        x, y, w, h = cv2.boundingRect(dst)
        x0, y0 = max(x, 0), max(y, 0)
        x1, y1 = min(x + w, out.shape[1]), min(y + h, out.shape[0])
        if x1 <= x0 or y1 <= y0:
            continue
        warp = cv2.getAffineTransform(src, dst - np.float32([x0, y0]))
        patch = cv2.warpAffine(image, warp, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(mask, np.round(dst - [x0, y0]).astype(np.int32), 255)
        region = out[y0:y1, x0:x1]
        region[mask > 0] = patch[mask > 0]
    return out


def main():
    photo, out_dir, name = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
    image = cv2.imread(photo)
    if image is None:
        sys.exit(f"cannot read {photo}")
    points = face_points(image)
    out_dir.mkdir(parents=True, exist_ok=True)
    for pose in POSES:
        file = out_dir / f"{name}_p{pose[0]}_y{pose[1]}_r{pose[2]}.png"
        if not cv2.imwrite(str(file), render(image, points, pose)):
            sys.exit(f"cannot write {file}")
        print(f"{file.name}\t{pose[0]}\t{pose[1]}\t{pose[2]}")


if __name__ == "__main__":
    main()
