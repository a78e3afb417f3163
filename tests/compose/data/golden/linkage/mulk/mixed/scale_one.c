/* A C helper of the C++ variant: its first source, not the variant's. */
float scale_one(float v, float k)
{
	return v * k;
}
