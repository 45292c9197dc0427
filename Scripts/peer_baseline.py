#!/usr/bin/env python3
"""The peer baseline: the Python script a user would write for the same job as frameprobe.

OpenCV decodes, dlib's HOG detector (no upsampling: faces in selfie footage are large) plus the 68-point
predictor run on every frame, Laplacian variance for sharpness, pyzbar for QR codes.
Usage: peer_baseline.py faces|quality|qr|all VIDEO  → one JSON line: frames, faceFrames, codes, seconds.
"""
import json
import sys
import time

import cv2

MODEL = "/usr/share/dlib/shape_predictor_68_face_landmarks.dat"


def main() -> None:
    mode, path = sys.argv[1], sys.argv[2]
    started = time.monotonic()
    detector = predictor = None
    if mode in ("faces", "all"):
        import dlib

        detector = dlib.get_frontal_face_detector()
        predictor = dlib.shape_predictor(MODEL)
    decode = None
    if mode in ("qr", "all"):
        from pyzbar import pyzbar

        decode = pyzbar.decode
    capture = cv2.VideoCapture(path)
    frames = face_frames = 0
    codes = set()
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        frames += 1
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        if detector is not None:
            faces = detector(gray, 0)
            for face in faces:
                predictor(gray, face)
            face_frames += bool(len(faces))
        if mode in ("quality", "all"):
            cv2.Laplacian(gray, cv2.CV_64F).var()
            (gray < 64).mean(), (gray > 191).mean()
        if decode is not None:
            codes.update(symbol.data for symbol in decode(gray))
    print(json.dumps({"frames": frames, "faceFrames": face_frames, "codes": len(codes),
                      "seconds": time.monotonic() - started}))


if __name__ == "__main__":
    main()
