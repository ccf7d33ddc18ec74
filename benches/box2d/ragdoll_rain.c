// Box2D v3 on impact's `ragdoll_rain` built-in scene (crates/impact-cli/src/scenes/joints.rs),
// for the comparison in docs/performance.md ("Joints: joint_grid and ragdoll_rain against
// Box2D v3 and rapier2d"). Our own code, written against Box2D's public API (box2d.h).
//
// The scene: one static body at the origin with three boxes (a floor of half size 16 x 0.5
// centered at (0, -0.5), walls of half size 0.5 x 10 centered at (-16.5, 10) and (16.5, 10));
// then 10 rows of 20 ragdolls, ragdoll (row, column) with its hips at
// (-14.625 + 1.5 column + 0.75 (row odd), 1.5 + 2.5 row). A ragdoll is seven capsules along y
// (torso, left and right thighs, left and right shins, left and right arms) and a circle head,
// created in that order, all at rest, density 1, friction 0.6, sleep off; and seven revolute
// joints with angle limits (head, thighs, knees, shoulders), created after every body in
// impact's order. Both engines' defaults otherwise (gravity (0, -10), restitution 0, jointed
// parts do not collide, every other pair does, the parts of one ragdoll included).
//
// Usage: ragdoll_rain [--steps N] [--warm-up W] [--cpu-time] (300 timed steps, impact's
// count, after 10).

#include "joint_bench.h"

#define ROWS 10
#define COLUMNS 20
#define PARTS 8

typedef struct Part
{
	float x, y; // center relative to the hips (m)
	float half; // capsule: half length of its segment along y (m); 0 for the head, a circle
	float radius;
} Part;

// torso, left thigh, right thigh, left shin, right shin, left arm, right arm, head
static const Part PARTS_OF_A_DOLL[PARTS] = {
	{ 0.0f, 0.45f, 0.25f, 0.14f },	{ -0.1f, -0.25f, 0.18f, 0.07f }, { 0.1f, -0.25f, 0.18f, 0.07f },
	{ -0.1f, -0.75f, 0.18f, 0.06f }, { 0.1f, -0.75f, 0.18f, 0.06f }, { -0.25f, 0.45f, 0.2f, 0.05f },
	{ 0.25f, 0.45f, 0.2f, 0.05f },	{ 0.0f, 1.0f, 0.0f, 0.13f },
};

typedef struct Hinge
{
	int parent, child; // indices into PARTS_OF_A_DOLL
	float x, y;		   // pivot relative to the hips (m)
	float lower, upper; // limits of the child's angle relative to the parent (rad)
} Hinge;

static const Hinge HINGES[PARTS - 1] = {
	{ 0, 7, 0.0f, 0.85f, -0.6f, 0.6f },	 { 0, 1, -0.1f, 0.0f, -1.2f, 0.6f }, { 0, 2, 0.1f, 0.0f, -1.2f, 0.6f },
	{ 1, 3, -0.1f, -0.5f, -0.1f, 2.0f }, { 2, 4, 0.1f, -0.5f, -0.1f, 2.0f }, { 0, 5, -0.2f, 0.7f, -2.5f, 2.5f },
	{ 0, 6, 0.2f, 0.7f, -2.5f, 2.5f },
};

int main( int argc, char** argv )
{
	int steps = 300, warmUp = 10;
	if ( parse_args( argc, argv, "ragdoll_rain", &steps, &warmUp ) != 0 )
	{
		return 2;
	}
	b2WorldId world = new_world();
	Ids ids = { 0 };

	b2BodyDef groundDef = b2DefaultBodyDef();
	b2BodyId ground = b2CreateBody( world, &groundDef );
	b2ShapeDef shape = b2DefaultShapeDef();
	const float boxes[3][4] = { { 16.0f, 0.5f, 0.0f, -0.5f }, { 0.5f, 10.0f, -16.5f, 10.0f }, { 0.5f, 10.0f, 16.5f, 10.0f } };
	for ( int k = 0; k < 3; ++k )
	{
		b2Polygon box = b2MakeOffsetBox( boxes[k][0], boxes[k][1], ( b2Vec2 ){ boxes[k][2], boxes[k][3] }, b2Rot_identity );
		b2CreatePolygonShape( ground, &shape, &box );
	}

	// The hips of each ragdoll, in creation order.
	b2Vec2 hips[ROWS * COLUMNS];
	for ( int row = 0; row < ROWS; ++row )
	{
		for ( int column = 0; column < COLUMNS; ++column )
		{
			float shift = row % 2 == 1 ? 0.75f : 0.0f;
			b2Vec2 at = { -14.625f + 1.5f * (float)column + shift, 1.5f + 2.5f * (float)row };
			hips[COLUMNS * row + column] = at;
			for ( int p = 0; p < PARTS; ++p )
			{
				const Part* part = &PARTS_OF_A_DOLL[p];
				b2BodyId body = awake_body( world, at.x + part->x, at.y + part->y );
				if ( part->half > 0.0f )
				{
					b2Capsule capsule = { { 0.0f, -part->half }, { 0.0f, part->half }, part->radius };
					b2CreateCapsuleShape( body, &shape, &capsule );
				}
				else
				{
					b2Circle head = { { 0.0f, 0.0f }, part->radius };
					b2CreateCircleShape( body, &shape, &head );
				}
				add_body( &ids, body );
			}
		}
	}
	for ( int doll = 0; doll < ROWS * COLUMNS; ++doll )
	{
		const b2BodyId* parts = ids.bodies + PARTS * doll;
		for ( int h = 0; h < PARTS - 1; ++h )
		{
			const Hinge* hinge = &HINGES[h];
			b2Vec2 anchor = { hips[doll].x + hinge->x, hips[doll].y + hinge->y };
			add_joint( &ids, pin( world, parts[hinge->parent], parts[hinge->child], anchor, true, hinge->lower, hinge->upper ) );
		}
	}

	time_steps( world, "ragdoll_rain", warmUp, steps );

	// Sanity: the ragdolls hold together and lie in a pile in the box.
	double sumY = 0.0;
	float top = -1e9f, left = 1e9f, right = -1e9f;
	for ( int i = 0; i < ids.bodyCount; ++i )
	{
		b2Vec2 p = b2Body_GetPosition( ids.bodies[i] );
		sumY += p.y;
		top = p.y > top ? p.y : top;
		left = p.x < left ? p.x : left;
		right = p.x > right ? p.x : right;
	}
	b2Counters counters = b2World_GetCounters( world );
	printf( "  sanity: %d bodies, %d joints; mean y %.2f, highest %.2f, x from %.2f to %.2f; worst joint gap %.4f m; "
			"%d contacts\n",
			ids.bodyCount + 1, ids.jointCount, sumY / (double)ids.bodyCount, top, left, right, worst_joint_gap( &ids ),
			counters.contactCount );

	b2DestroyWorld( world );
	free( ids.bodies );
	free( ids.joints );
	return 0;
}
