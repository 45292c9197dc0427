#!/usr/bin/env python3
"""The MediaPipe peer: what a user would pick today for faces in video — OpenCV decodes, MediaPipe FaceMesh (468
landmarks, its own detector and landmark tracking; the models ship in the wheel) on every frame.
Usage: peer_mediapipe.py VIDEO  → one JSON line: frames, faceFrames, seconds.
"""
import json
import sys
import time

import cv2
import mediapipe as mp


def main() -> None:
    path = sys.argv[1]
    started = time.monotonic()
    capture = cv2.VideoCapture(path)
    frames = faces = 0
    with mp.solutions.face_mesh.FaceMesh(static_image_mode=False, max_num_faces=1, refine_landmarks=False) as mesh:
        while True:
            ok, frame = capture.read()
            if not ok:
                break
            frames += 1
            result = mesh.process(cv2.cvtColor(frame, cv2.COLOR_BGR2RGB))
            if result.multi_face_landmarks:
                faces += 1
    print(json.dumps({"frames": frames, "faceFrames": faces, "seconds": round(time.monotonic() - started, 3)}))


if __name__ == "__main__":
    main()
