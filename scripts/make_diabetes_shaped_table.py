#!/usr/bin/env python3
"""Writes resources/data/tables/diabetes-shaped.csv: 768 synthetic rows with the columns of the
Pima Indians diabetes table (8 numeric features on very different scales, the binary label
`Outcome` last), for trying a user's table without downloading one. The outcome is drawn from a
logistic model with the coefficients below, so the data have a known truth. Deterministic:
the same seed gives the same bytes."""
import math
import random
import sys

COLUMNS = ["Pregnancies", "Glucose", "BloodPressure", "SkinThickness", "Insulin", "BMI",
           "DiabetesPedigreeFunction", "Age", "Outcome"]
# logit P(Outcome = 1) = INTERCEPT + sum of COEFFICIENTS[name] * value
INTERCEPT = -8.4
COEFFICIENTS = {"Pregnancies": 0.12, "Glucose": 0.035, "BloodPressure": -0.013, "BMI": 0.09,
                "DiabetesPedigreeFunction": 0.95, "Age": 0.015}


def main(path):
    rng = random.Random(3)
    with open(path, "w", newline="\n") as out:
        out.write(",".join(COLUMNS) + "\n")
        for _ in range(768):
            row = {"Pregnancies": rng.randint(0, 17), "Glucose": int(rng.gauss(121, 32)),
                   "BloodPressure": int(rng.gauss(69, 19)), "SkinThickness": rng.randint(0, 99),
                   "Insulin": rng.choice([0, 0, rng.randint(14, 846)]), "BMI": round(rng.gauss(32, 7.9), 1),
                   "DiabetesPedigreeFunction": round(rng.uniform(0.078, 2.42), 3), "Age": rng.randint(21, 81)}
            logit = INTERCEPT + sum(c * row[name] for name, c in COEFFICIENTS.items())
            row["Outcome"] = 1 if rng.random() < 1 / (1 + math.exp(-logit)) else 0
            out.write(",".join(str(row[name]) for name in COLUMNS) + "\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "resources/data/tables/diabetes-shaped.csv")
